/**
 * The account module's face to the rest of the server (product §7 account table, §12, §17, §26):
 * one object joining the module's services, for the modules, scripts and plugins that call into
 * accounts (orders and withdrawals check passwords and step-ups, the auth plugin resolves sessions,
 * the admin script signs a user out everywhere). Each call is the method of the service that owns it:
 *
 * - auth.service.ts — sign-up, sign-in (with its two-factor step), sign-out, password change and reset;
 * - two-factor.service.ts — two-factor setup, status, enabling, disabling, the second factor of a call;
 * - sessions.service.ts — resolving, listing and revoking sessions, and the step-up of spends and
 *   sensitive changes;
 * - profile.service.ts — `get/me`, assets, the public profile, profile edits, notification choices,
 *   account deletion;
 * - credentials.ts — the live account and the password check, spending the shared password budget.
 *
 * The composition root (services.ts) builds those in that dependency order (credentials, two-factor,
 * sessions, auth, profile) and joins them here; the account routes call the services themselves.
 */
import type { AuthService } from './auth.service';
import type { Credentials } from './credentials';
import type { ProfileService } from './profile.service';
import type { SessionsService } from './sessions.service';
import type { TwoFactorService } from './two-factor.service';

export type { ClientInfo } from './sessions.service';
export { USER_ROW_CACHE_TTL_MS, type DeletionGuard, type DeletionHook } from './profile.service';

/** The account module's parts, as services.ts builds them. */
export interface AccountParts {
  credentials: Credentials;
  auth: AuthService;
  twoFactor: TwoFactorService;
  sessions: SessionsService;
  profile: ProfileService;
}

/**
 * The one object other modules are given as `accounts`. Its members are the parts' own functions
 * (none of them reads `this`), so replacing one on this object changes what its callers through
 * `accounts` get, and nothing else.
 */
export function joinAccountServices(parts: AccountParts) {
  const { credentials, auth, twoFactor, sessions, profile } = parts;
  return {
    register: auth.register,
    login: auth.login,
    loginTwoFactor: auth.loginTwoFactor,
    logout: auth.logout,
    changePassword: auth.changePassword,
    setPassword: auth.setPassword,
    findByEmail: auth.findByEmail,
    sendResetCode: auth.sendResetCode,
    resetPassword: auth.resetPassword,
    mailSettled: auth.mailSettled,

    twoFactorStatus: twoFactor.twoFactorStatus,
    twoFactorSetup: twoFactor.twoFactorSetup,
    twoFactorEnable: twoFactor.twoFactorEnable,
    twoFactorDisable: twoFactor.twoFactorDisable,
    checkSecondFactor: twoFactor.checkSecondFactor,

    resolveSession: sessions.resolveSession,
    listSessions: sessions.listSessions,
    revokeSession: sessions.revokeSession,
    revokeOtherSessions: sessions.revokeOtherSessions,
    revokeAllSessions: sessions.revokeAllSessions,
    isSteppedUp: sessions.isSteppedUp,
    authorizeSpend: sessions.authorizeSpend,
    confirmSensitive: sessions.confirmSensitive,

    checkPassword: credentials.checkPassword,

    me: profile.me,
    profile: profile.profile,
    avatarUrl: profile.avatarUrl,
    assets: profile.assets,
    change: profile.change,
    notifications: profile.notifications,
    deleteAccount: profile.deleteAccount,
  };
}

export type AccountService = ReturnType<typeof joinAccountServices>;
