/** Account routes (SPEC 7 account table). Thin: parse (contract schemas), call the service, answer. */
import {
  AccountChangeDataSchema,
  AccountChangeRequestSchema,
  AccountDeleteDataSchema,
  AccountDeleteRequestSchema,
  AssetsDataSchema,
  AssetsRequestSchema,
  GetMeDataSchema,
  GetMeRequestSchema,
  LoginDataSchema,
  LoginRequestSchema,
  LogoutDataSchema,
  LogoutRequestSchema,
  PasswordChangeDataSchema,
  PasswordChangeRequestSchema,
  PasswordForgetDataSchema,
  PasswordForgetRequestSchema,
  ProfileDataSchema,
  ProfileRequestSchema,
  RegisterDataSchema,
  RegisterRequestSchema,
  SendMailDataSchema,
  SendMailRequestSchema,
} from '@coffer/contract';
import type { FastifyInstance } from 'fastify';
import { defineRoute, ucPath } from '../../lib/route';
import { bodyLimiter } from '../../plugins/rate-limit';
import { ACCOUNT_RATE_LIMITS as LIMITS, perIp } from './account.limits';
import type { AccountService } from './account.service';

const tags = ['account'];

/** The lower-cased `field` of the (validated) body: the account a per-account limit counts. */
const bodyKey = (field: string) => (req: { body: unknown }) =>
  String((req.body as Record<string, unknown>)[field] ?? '').toLowerCase();

/** Limits the configuration sets (docs/abuse.md). */
export interface AccountRouteLimits {
  /** REGISTRATIONS_PER_IP_PER_HOUR: accounts one client address may create per hour. */
  registrationsPerIpPerHour: number;
}

export function accountRoutes(
  app: FastifyInstance,
  accounts: AccountService,
  limits: AccountRouteLimits = { registrationsPerIpPerHour: 20 },
) {
  const loginPerAccount = bodyLimiter(app, { ...LIMITS.login.perAccount, key: bodyKey('account') });
  const sendMailPerAccount = bodyLimiter(app, { ...LIMITS.sendMail.perAccount, key: bodyKey('email') });
  const forgetPerAccount = bodyLimiter(app, { ...LIMITS.passwordForget.perAccount, key: bodyKey('email') });

  defineRoute(
    app,
    {
      path: ucPath('/register'),
      body: RegisterRequestSchema,
      data: RegisterDataSchema,
      // Per client address (TRUST_PROXY decides which address that is behind a proxy).
      rateLimit: perIp({ max: limits.registrationsPerIpPerHour, timeWindowMs: 3_600_000 }),
      tags,
      summary: 'Create an account and sign in',
    },
    ({ body }) => accounts.register(body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/login'),
      body: LoginRequestSchema,
      data: LoginDataSchema,
      rateLimit: perIp(LIMITS.login.perIp),
      tags,
      summary: 'Sign in with username or email',
    },
    async ({ body, req, reply }) => {
      await loginPerAccount(req, reply);
      return accounts.login(body);
    },
  );
  defineRoute(
    app,
    {
      path: ucPath('/send_mail'),
      body: SendMailRequestSchema,
      data: SendMailDataSchema,
      rateLimit: perIp(LIMITS.sendMail.perIp),
      tags,
      summary: 'Mail a password reset code (answers {} whether or not the email is registered)',
    },
    async ({ body, req, reply }) => {
      await sendMailPerAccount(req, reply);
      return accounts.sendResetCode(body.email);
    },
  );
  defineRoute(
    app,
    {
      path: ucPath('/password/forget'),
      body: PasswordForgetRequestSchema,
      data: PasswordForgetDataSchema,
      rateLimit: perIp(LIMITS.passwordForget.perIp),
      tags,
      summary: 'Set a new password with a mailed reset code (revokes every session)',
    },
    async ({ body, req, reply }) => {
      await forgetPerAccount(req, reply);
      return accounts.resetPassword(body);
    },
  );
  defineRoute(
    app,
    {
      path: ucPath('/logout'),
      body: LogoutRequestSchema,
      data: LogoutDataSchema,
      auth: 'required',
      tags,
      summary: 'Revoke the current session',
    },
    ({ auth }) => accounts.logout(auth.sessionId),
  );
  defineRoute(
    app,
    {
      path: ucPath('/get/me'),
      body: GetMeRequestSchema,
      data: GetMeDataSchema,
      auth: 'required',
      tags,
      summary: 'The signed-in user',
    },
    ({ auth }) => accounts.me(auth.userId),
  );
  defineRoute(
    app,
    {
      path: ucPath('/assets'),
      body: AssetsRequestSchema,
      data: AssetsDataSchema,
      auth: 'required',
      tags,
      summary: 'Available and frozen points',
    },
    ({ auth, body }) => accounts.assets(auth.userId, body.user_id),
  );
  defineRoute(
    app,
    {
      path: ucPath('/profile'),
      body: ProfileRequestSchema,
      data: ProfileDataSchema,
      auth: 'optional',
      tags,
      summary: "A user's public profile",
    },
    ({ body }) => accounts.profile(body.user_id),
  );
  defineRoute(
    app,
    {
      path: ucPath('/change'),
      body: AccountChangeRequestSchema,
      data: AccountChangeDataSchema,
      auth: 'required',
      tags,
      summary: 'Change nickname or avatar',
    },
    ({ auth, body }) => accounts.change(auth.userId, body),
  );
  defineRoute(
    app,
    {
      path: ucPath('/password/change'),
      body: PasswordChangeRequestSchema,
      data: PasswordChangeDataSchema,
      auth: 'required',
      tags,
      summary: 'Change the password (revokes every session, returns a fresh token)',
    },
    ({ auth, body }) => accounts.changePassword(auth.userId, body.password_old, body.password_new),
  );
  defineRoute(
    app,
    {
      path: ucPath('/delete'),
      body: AccountDeleteRequestSchema,
      data: AccountDeleteDataSchema,
      auth: 'required',
      tags,
      summary: 'Delete the account',
    },
    ({ auth, body }) => accounts.deleteAccount(auth.userId, body.password),
  );
}
