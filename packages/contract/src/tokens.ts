/**
 * Personal access token calls (docs/decisions/0058-personal-access-tokens.md, 0059-token-scopes.md),
 * base path `/api/uc/v1/account/token`. A signed-in session only: a token never manages tokens.
 * Times are millisecond timestamps. The format, scopes and limits are in `token-scopes.ts`.
 */
import { z } from 'zod';
import { IdSchema } from './common';
import { PasswordDigestSchema } from './password';
import { TwoFactorCodeSchema } from './security';
import { TOKEN_EXPIRY_DAYS, TOKEN_NAME_MAX, TOKEN_SCOPE_KEYS, type TokenScope } from './token-scopes';

export const TokenMessages = {
  nameRequired: 'Give the token a name',
  nameTooLong: `The name must be at most ${TOKEN_NAME_MAX} characters`,
  scopesRequired: 'Choose at least one scope',
  unknownScope: 'Unknown scope',
  expiry: `Expiry must be one of ${TOKEN_EXPIRY_DAYS.join(', ')} days`,
} as const;

/** A scope name as sent: one of `TOKEN_SCOPES`. */
export const TokenScopeSchema = z.enum(TOKEN_SCOPE_KEYS as [TokenScope, ...TokenScope[]], { error: TokenMessages.unknownScope });

/**
 * POST /uc/v1/account/token/create — `name` (1-100 characters), `scopes` (at least one, each once),
 * `expires_in_days` (7, 30, 90 or 365) and the step-up proof: `password` (the login password's MD5
 * digest) when two-factor sign-in is off, `code` (or a recovery code) when it is on. Without the
 * right proof: STEP_UP_REQUIRED with `data.method`.
 */
export const TokenCreateRequestSchema = z.object({
  name: z
    .string({ error: TokenMessages.nameRequired })
    .trim()
    .min(1, TokenMessages.nameRequired)
    .max(TOKEN_NAME_MAX, TokenMessages.nameTooLong),
  scopes: z
    .array(TokenScopeSchema, { error: TokenMessages.scopesRequired })
    .min(1, TokenMessages.scopesRequired)
    .max(TOKEN_SCOPE_KEYS.length)
    .transform((list) => TOKEN_SCOPE_KEYS.filter((s) => list.includes(s))),
  expires_in_days: z
    .number({ error: TokenMessages.expiry })
    .refine((d) => (TOKEN_EXPIRY_DAYS as readonly number[]).includes(d), TokenMessages.expiry)
    .meta({ example: 30, description: `Days until the token expires: ${TOKEN_EXPIRY_DAYS.join(', ')}.` }),
  password: PasswordDigestSchema.optional(),
  code: TwoFactorCodeSchema.optional(),
});
export type TokenCreateRequest = z.input<typeof TokenCreateRequestSchema>;

/** One token as listed: never the token itself, which only its creation answers. */
export const TokenInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  created_at: z.number(),
  /** Refreshed at most once a minute; null until first used. */
  last_used_at: z.number().nullable(),
  expires_at: z.number(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

/** The answer of token/create: the metadata and, this once, `token` (`coffer_pat_...`). */
export const TokenCreateDataSchema = TokenInfoSchema.extend({ token: z.string() });
export type TokenCreated = z.infer<typeof TokenCreateDataSchema>;

/** POST /uc/v1/account/token/list — the caller's live tokens (neither revoked nor expired), newest first. */
export const TokenListRequestSchema = z.object({}).default({});
export const TokenListDataSchema = z.object({ tokens: z.array(TokenInfoSchema) });

/** POST /uc/v1/account/token/revoke — one of the caller's tokens (another user's answers NOT_FOUND). */
export const TokenRevokeRequestSchema = z.object({ token_id: IdSchema });
export const TokenRevokeDataSchema = z.object({});
