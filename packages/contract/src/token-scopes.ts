/**
 * Personal access tokens (docs/decisions/0058-personal-access-tokens.md, 0059-token-scopes.md):
 * the token format, the scopes a token may hold and the limits of the Developer tab. Zod-free, so
 * that the endpoint table (`endpoints.ts`) and the web's first screen can import it.
 *
 * A token reads `coffer_pat_` + {@link TOKEN_RANDOM_LENGTH} base62 characters of randomness +
 * {@link TOKEN_CHECKSUM_LENGTH} base62 characters of the CRC-32 of that random part (as GitHub's
 * tokens), so that secret scanners can find leaked tokens and a mistyped one is refused before any
 * database read.
 */

/** Every personal access token starts with this. */
export const TOKEN_PREFIX = 'coffer_pat_';
/** Base62 characters of randomness after the prefix (30 x log2(62) ≈ 178 bits). */
export const TOKEN_RANDOM_LENGTH = 30;
/** Base62 characters of the CRC-32 checksum of the random part, left-padded with '0'. */
export const TOKEN_CHECKSUM_LENGTH = 6;
/** Length of a whole token: prefix, random part and checksum. */
export const TOKEN_LENGTH = TOKEN_PREFIX.length + TOKEN_RANDOM_LENGTH + TOKEN_CHECKSUM_LENGTH;
/** The base62 alphabet of the random part and the checksum. */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Days a new token lives; there is no token without an expiry (ADR 0058). */
export const TOKEN_EXPIRY_DAYS = [7, 30, 90, 365] as const;
export type TokenExpiryDays = (typeof TOKEN_EXPIRY_DAYS)[number];
/** Live (neither revoked nor expired) tokens a user may hold at once. */
export const MAX_LIVE_TOKENS = 50;
/** Longest token name, characters. */
export const TOKEN_NAME_MAX = 100;
/** `last_used_at` is written at most once per this many milliseconds per token. */
export const TOKEN_LAST_USED_INTERVAL_MS = 60_000;

/**
 * The scopes a token may hold, read and write per area of the endpoint table. Each envelope call
 * names the one it needs (`ENDPOINTS[key].scope`); `null` there means the call takes a signed-in
 * session only (cash-out, token management, password, email, two-factor, sessions, account changes
 * and deletion: ADR 0059).
 */
export const TOKEN_SCOPES = {
  'account:read': 'Read your account: profile, username and notification choices',
  'wallet:read': 'Read your balances, transaction records and top-up bills',
  'collections:read': 'Read your collections, files, downloads and library changes',
  'collections:write': 'Create, edit, publish and delete your collections and upload files',
  'orders:read': 'Read your orders and purchased collections',
  'orders:write': 'Buy and pay for collections, ask for refunds, write reviews',
  'sales:read': 'Read your sales, dashboard, discount codes and licence settings',
  'sales:write': 'Refund your buyers, manage discount codes and licence keys, reply to reviews',
  'events:read': 'Read your seller events',
  'webhooks:read': 'Read your webhook endpoint and its deliveries',
  'webhooks:write': 'Set your webhook URL, rotate its secret and redeliver events',
} as const;

/** One scope, e.g. 'orders:read'. */
export type TokenScope = keyof typeof TOKEN_SCOPES;
/** Every scope, in the order above (the order the web lists them in). */
export const TOKEN_SCOPE_KEYS = Object.keys(TOKEN_SCOPES) as TokenScope[];
