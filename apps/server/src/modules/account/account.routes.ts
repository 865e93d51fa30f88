/**
 * Account routes (product §7 account table). Thin: parse (contract schemas), call the account
 * module's service that owns the call (auth, two-factor, sessions, profile), answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { defineEndpoint } from '../../lib/route';
import { bodyLimiter } from '../../plugins/rate-limit';
import { ACCOUNT_RATE_LIMITS as LIMITS, perIp } from './account.limits';
import type { AuthService } from './auth.service';
import type { ProfileService } from './profile.service';
import type { SessionsService } from './sessions.service';
import type { TwoFactorService } from './two-factor.service';

/** The lower-cased `field` of the (validated) body: the account a per-account limit counts. */
const bodyKey = (field: string) => (req: { body: unknown }) =>
  String((req.body as Record<string, unknown>)[field] ?? '').toLowerCase();

/** The User-Agent and client address of a sign-in (`req.ip` follows TRUST_PROXY). */
const clientOf = (req: FastifyRequest) => ({ userAgent: req.headers['user-agent'], address: req.ip });

/** The account module's services the routes call (services.ts builds them). */
export interface AccountRouteServices {
  auth: AuthService;
  twoFactor: TwoFactorService;
  sessions: SessionsService;
  profile: ProfileService;
}

/** Limits the configuration sets (docs/abuse.md). */
export interface AccountRouteLimits {
  /** REGISTRATIONS_PER_IP_PER_HOUR: accounts one client address may create per hour. */
  registrationsPerIpPerHour: number;
}

export function accountRoutes(
  app: FastifyInstance,
  services: AccountRouteServices,
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
    ({ body, req }) => services.auth.register(body, clientOf(req)),
  );
  defineEndpoint(
    app,
    'login',
    {
      rateLimit: perIp(LIMITS.login.perIp),
    },
    // Wrong passwords are counted per (account, address) and per account by the service (login-guard.ts).
    ({ body, req }) => services.auth.login(body, clientOf(req)),
  );
  defineEndpoint(app, 'loginTwoFactor', { rateLimit: perIp(LIMITS.login.perIp) }, ({ body, req }) =>
    services.auth.loginTwoFactor(body, clientOf(req)),
  );
  defineEndpoint(app, 'twoFactorStatus', {}, ({ auth }) => services.twoFactor.twoFactorStatus(auth.userId));
  defineEndpoint(app, 'twoFactorSetup', {}, ({ auth }) => services.twoFactor.twoFactorSetup(auth.userId));
  defineEndpoint(app, 'twoFactorEnable', {}, ({ auth, body }) => services.twoFactor.twoFactorEnable(auth.userId, body.code));
  defineEndpoint(app, 'twoFactorDisable', {}, ({ auth, body }) => services.twoFactor.twoFactorDisable(auth.userId, body));
  defineEndpoint(app, 'sessionList', {}, ({ auth }) => services.sessions.listSessions(auth.userId, auth.sessionId));
  defineEndpoint(app, 'sessionRevoke', {}, ({ auth, body }) => services.sessions.revokeSession(auth.userId, body.session_id));
  defineEndpoint(app, 'sessionRevokeOthers', {}, ({ auth }) => services.sessions.revokeOtherSessions(auth.userId, auth.sessionId));
  defineEndpoint(
    app,
    'sendMail',
    {
      rateLimit: perIp(LIMITS.sendMail.perIp),
    },
    async ({ body, req, reply }) => {
      await sendMailPerAccount(req, reply);
      return services.auth.sendResetCode(body.email);
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
      return services.auth.resetPassword(body);
    },
  );
  defineEndpoint(app, 'logout', {}, ({ auth }) => services.auth.logout(auth.sessionId));
  defineEndpoint(app, 'getMe', {}, ({ auth }) => services.profile.me(auth.userId));
  defineEndpoint(app, 'accountNotifications', {}, ({ auth, body }) => services.profile.notifications(auth.userId, body));
  defineEndpoint(app, 'assets', {}, ({ auth, body }) => services.profile.assets(auth.userId, body.user_id));
  defineEndpoint(app, 'profile', {}, ({ body }) => services.profile.profile(body.user_id));
  defineEndpoint(app, 'accountChange', {}, ({ auth, body }) => services.profile.change(auth.userId, body));
  defineEndpoint(app, 'passwordChange', {}, ({ auth, body }) =>
    services.auth.changePassword(auth.userId, body.password_old, body.password_new),
  );
  defineEndpoint(app, 'accountDelete', {}, ({ auth, body }) => services.profile.deleteAccount(auth.userId, body.password));
}
