/** Account routes (product §7 account table). Thin: parse (contract schemas), call the service, answer. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { bodyLimiter } from '../../plugins/rate-limit';
import { ACCOUNT_RATE_LIMITS as LIMITS, perIp } from './account.limits';
import type { AccountService } from './account.service';

/** The lower-cased `field` of the (validated) body: the account a per-account limit counts. */
const bodyKey = (field: string) => (req: { body: unknown }) =>
  String((req.body as Record<string, unknown>)[field] ?? '').toLowerCase();

/** The User-Agent and client address of a sign-in (`req.ip` follows TRUST_PROXY). */
const clientOf = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'], address: req.ip });

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
  const sendMailPerAccount = bodyLimiter(app, { ...LIMITS.sendMail.perAccount, key: bodyKey('email'), name: 'sendMail-account' });
  const forgetPerAccount = bodyLimiter(app, { ...LIMITS.passwordForget.perAccount, key: bodyKey('email'), name: 'passwordForget-account' });

  defineEndpoint(
    app,
    'register',
    {
      // Per client address (TRUST_PROXY decides which address that is behind a proxy).
      rateLimit: perIp({ max: limits.registrationsPerIpPerHour, timeWindowMs: 3_600_000 }),
    },
    ({ body, req }) => accounts.register(body, clientOf(req)),
  );
  defineEndpoint(
    app,
    'login',
    {
      rateLimit: perIp(LIMITS.login.perIp),
    },
    // Wrong passwords are counted per (account, address) and per account by the service (login-guard.ts).
    ({ body, req }) => accounts.login(body, clientOf(req)),
  );
  defineEndpoint(app, 'loginTwoFactor', { rateLimit: perIp(LIMITS.login.perIp) }, ({ body, req }) =>
    accounts.loginTwoFactor(body, clientOf(req)),
  );
  defineEndpoint(app, 'twoFactorStatus', {}, ({ auth }) => accounts.twoFactorStatus(auth.userId));
  defineEndpoint(app, 'twoFactorSetup', {}, ({ auth }) => accounts.twoFactorSetup(auth.userId));
  defineEndpoint(app, 'twoFactorEnable', {}, ({ auth, body }) => accounts.twoFactorEnable(auth.userId, body.code));
  defineEndpoint(app, 'twoFactorDisable', {}, ({ auth, body }) => accounts.twoFactorDisable(auth.userId, body));
  defineEndpoint(app, 'sessionList', {}, ({ auth }) => accounts.listSessions(auth.userId, auth.sessionId));
  defineEndpoint(app, 'sessionRevoke', {}, ({ auth, body }) => accounts.revokeSession(auth.userId, body.session_id));
  defineEndpoint(app, 'sessionRevokeOthers', {}, ({ auth }) => accounts.revokeOtherSessions(auth.userId, auth.sessionId));
  defineEndpoint(
    app,
    'sendMail',
    {
      rateLimit: perIp(LIMITS.sendMail.perIp),
    },
    async ({ body, req, reply }) => {
      await sendMailPerAccount(req, reply);
      return accounts.sendResetCode(body.email);
    },
  );
  defineEndpoint(
    app,
    'passwordForget',
    {
      rateLimit: perIp(LIMITS.passwordForget.perIp),
    },
    async ({ body, req, reply }) => {
      await forgetPerAccount(req, reply);
      return accounts.resetPassword(body);
    },
  );
  defineEndpoint(app, 'logout', {}, ({ auth }) => accounts.logout(auth.sessionId));
  defineEndpoint(app, 'getMe', {}, ({ auth }) => accounts.me(auth.userId));
  defineEndpoint(app, 'accountNotifications', {}, ({ auth, body }) => accounts.notifications(auth.userId, body));
  defineEndpoint(app, 'assets', {}, ({ auth, body }) => accounts.assets(auth.userId, body.user_id));
  defineEndpoint(app, 'profile', {}, ({ body }) => accounts.profile(body.user_id));
  defineEndpoint(app, 'accountChange', {}, ({ auth, body }) => accounts.change(auth.userId, body));
  defineEndpoint(app, 'passwordChange', {}, ({ auth, body }) =>
    accounts.changePassword(auth.userId, body.password_old, body.password_new),
  );
  defineEndpoint(app, 'accountDelete', {}, ({ auth, body }) => accounts.deleteAccount(auth.userId, body.password));
}
