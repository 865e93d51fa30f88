/**
 * Account security calls (product §26): two-factor sign-in (TOTP, RFC 6238) and the caller's
 * sessions. Base path `/api/uc/v1/account`. Times are millisecond timestamps.
 */
import { z } from 'zod';
import { IdSchema } from './common';
import { PasswordDigestSchema } from './password';

/** Digits of a TOTP code (RFC 6238, 30-second steps). */
export const TOTP_DIGITS = 6;
/** Recovery codes handed out when two-factor sign-in is turned on. */
export const RECOVERY_CODE_COUNT = 10;
/** Seconds a login challenge (the answer to a right password when two-factor is on) stays valid. */
export const LOGIN_CHALLENGE_TTL_SECONDS = 300;

/**
 * A code typed by the user: 6 digits from the authenticator app, or one recovery code
 * (`xxxx-xxxx-xxxx-xxxx`, letters and digits; case, spaces and dashes are ignored by the server).
 */
export const TwoFactorCodeSchema = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .max(40, 'Invalid code')
  .regex(/^[A-Za-z0-9 -]+$/, 'Invalid code');

/** POST /uc/v1/account/2fa/status — whether two-factor sign-in is on, and recovery codes left. */
export const TwoFactorStatusRequestSchema = z.object({}).default({});
export const TwoFactorStatusDataSchema = z.object({ enabled: z.boolean(), recovery_codes_left: z.number().int() });
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusDataSchema>;

/** POST /uc/v1/account/2fa/setup — a fresh secret, not active until `2fa/enable` proves it. */
export const TwoFactorSetupRequestSchema = z.object({}).default({});
export const TwoFactorSetupDataSchema = z.object({
  /** `otpauth://totp/Coffer:<username>?secret=...&issuer=Coffer&digits=6&period=30`, for the QR code. */
  otpauth_uri: z.string(),
  /** The base32 secret, for typing into an app by hand. */
  secret: z.string(),
});
export type TwoFactorSetup = z.infer<typeof TwoFactorSetupDataSchema>;

/** POST /uc/v1/account/2fa/enable — a code from the app turns two-factor on; the recovery codes are shown once. */
export const TwoFactorEnableRequestSchema = z.object({ code: TwoFactorCodeSchema });
export const TwoFactorEnableDataSchema = z.object({ recovery_codes: z.array(z.string()) });

/** POST /uc/v1/account/2fa/disable — the login password (MD5 digest) and a code (or a recovery code). */
export const TwoFactorDisableRequestSchema = z.object({ password: PasswordDigestSchema, code: TwoFactorCodeSchema });
export const TwoFactorDisableDataSchema = z.object({});

/** POST /uc/v1/account/login/2fa — the challenge of a TWO_FACTOR_REQUIRED login answer and a code. */
export const LoginTwoFactorRequestSchema = z.object({
  challenge: z.string({ error: 'Challenge is required' }).trim().min(1, 'Challenge is required').max(128, 'Invalid challenge'),
  code: TwoFactorCodeSchema,
});
export const LoginTwoFactorDataSchema = z.object({ access_token: z.string() });

/** `data` of a login answered with reason TWO_FACTOR_REQUIRED. */
export const TwoFactorChallengeSchema = z.object({ challenge: z.string(), expires_at: z.number() });
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallengeSchema>;

/** One signed-in session of the caller. */
export const SessionInfoSchema = z.object({
  id: z.string(),
  /** e.g. 'Chrome on macOS'; 'Unknown device' when the user agent says nothing useful. */
  device: z.string(),
  /** The client address seen at sign-in ('' when unknown). */
  address: z.string(),
  created_at: z.number(),
  /** Refreshed at most once a minute. */
  last_seen_at: z.number(),
  /** True for the session making this call. */
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

/** POST /uc/v1/account/session/list — live sessions, most recently seen first. */
export const SessionListRequestSchema = z.object({}).default({});
export const SessionListDataSchema = z.object({ sessions: z.array(SessionInfoSchema) });

/** POST /uc/v1/account/session/revoke — one of the caller's sessions (another user's answers NOT_FOUND). */
export const SessionRevokeRequestSchema = z.object({ session_id: IdSchema });
export const SessionRevokeDataSchema = z.object({});

/** POST /uc/v1/account/session/revoke/others — every session of the caller but this one. */
export const SessionRevokeOthersRequestSchema = z.object({}).default({});
export const SessionRevokeOthersDataSchema = z.object({ revoked: z.number().int() });
