/**
 * Personal access tokens (docs/decisions/0058-personal-access-tokens.md, 0059-token-scopes.md).
 *
 * - `create(userId, input)`: re-authentication first (the password, or a two-factor code when it
 *   is on: `confirmSensitive`, every time), then at most MAX_LIVE_TOKENS live tokens per user
 *   (counted under the user's row lock), then a new `coffer_pat_...` token stored as the SHA-256
 *   hex of the whole token. The token is answered this once and never again.
 *   @throws STEP_UP_REQUIRED, INVALID_CREDENTIALS, RATE_LIMITED, CONFLICT (limit reached)
 * - `list(userId)`: live tokens, newest first, without the tokens.
 * - `revoke(userId, tokenId)`: @throws NOT_FOUND (no live token of the caller by that id)
 * - `resolve(token)`: the bearer lookup of plugins/auth.ts. A malformed token or a wrong checksum
 *   answers null without a database read; otherwise one indexed read by hash (live token, user
 *   neither suspended nor deleted). Live tokens are cached in-process for SESSION_CACHE_TTL_MS
 *   (5 s) like sessions; a revocation (token/revoke, a suspension, an account deletion) reaches
 *   every instance's cache at once through the revocation bus. `last_used_at` is written on a
 *   cache miss only, and at most once per TOKEN_LAST_USED_INTERVAL_MS (60 s) per token, with a
 *   conditional update so that instances do not write it twice.
 */
import {
  MAX_LIVE_TOKENS,
  TOKEN_LAST_USED_INTERVAL_MS,
  type TokenCreated,
  type TokenInfo,
  type TokenScope,
} from '@coffer/contract';
import type { Db, Tx } from '../../db/client';
import type { AuthContext } from '../../lib/auth-context';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { localBus, type Revocation, type RevocationBus } from '../../lib/shared-state';
import { SESSION_CACHE_MAX_ENTRIES, SESSION_CACHE_TTL_MS } from '../account/session-cache';
import { hashAccessToken, isWellFormedAccessToken, newAccessToken } from './token-format';
import * as repo from './tokens.repository';

/** The prompts of token creation's re-authentication (STEP_UP_REQUIRED). */
export const TOKEN_STEP_UP_PASSWORD_MSG = 'For your security, enter your password to create an access token.';
export const TOKEN_STEP_UP_CODE_MSG =
  'Two-factor authentication is on: enter the 6-digit code from your authenticator app (or a recovery code) to create an access token.';
/** The refusal past MAX_LIVE_TOKENS. */
export const TOKEN_LIMIT_MSG = `You have ${MAX_LIVE_TOKENS} access tokens already. Revoke one you no longer use to create another.`;

export interface TokensDeps {
  db: Db;
  clock: Clock;
  /**
   * The re-authentication of a sensitive change (SessionsService.confirmSensitive).
   * @throws STEP_UP_REQUIRED, INVALID_CREDENTIALS, RATE_LIMITED
   */
  confirmSensitive(
    userId: string,
    proof: { password?: string | undefined; code?: string | undefined },
    prompts: { password: string; code: string },
  ): Promise<void>;
  /**
   * Takes the user's row lock until `tx` ends (the account module's), so that two creations cannot
   * both pass the live-token limit. @returns false when the user does not exist
   */
  lockUser(tx: Tx, userId: string): Promise<boolean>;
  /** Carries revocations to every instance (lib/shared-state.ts); default: this process only. */
  revocations?: RevocationBus;
  log?: { error(obj: object, msg: string): void };
}

/** What token/create takes once parsed (TokenCreateRequestSchema). */
export interface TokenCreateInput {
  name: string;
  scopes: TokenScope[];
  expires_in_days: number;
  password?: string | undefined;
  code?: string | undefined;
}

interface CachedToken {
  userId: string;
  tokenId: string;
  scopes: TokenScope[];
  expiresAt: number;
  cachedAt: number;
}

const info = (row: repo.AccessTokenRow): TokenInfo => ({
  id: row.id,
  name: row.name,
  scopes: row.scopes,
  created_at: row.createdAt.getTime(),
  last_used_at: row.lastUsedAt?.getTime() ?? null,
  expires_at: row.expiresAt.getTime(),
});

export function createTokensService(deps: TokensDeps) {
  const { db, clock } = deps;
  const revocations = deps.revocations ?? localBus();
  const log = deps.log ?? { error: () => undefined };
  /** Live tokens read in the last SESSION_CACHE_TTL_MS, by hash. */
  const cache = new Map<string, CachedToken>();
  const dropWhere = (match: (e: CachedToken) => boolean) => {
    for (const [hash, entry] of cache) if (match(entry)) cache.delete(hash);
  };
  const apply = (event: Revocation) => {
    if (event.kind === 'token') dropWhere((e) => e.tokenId === event.tokenId);
    else if (event.kind === 'user') dropWhere((e) => e.userId === event.userId);
  };
  revocations.subscribe(apply);

  const toAuth = (e: { userId: string; tokenId: string; scopes: TokenScope[] }): AuthContext => ({
    userId: e.userId,
    sessionId: e.tokenId,
    steppedUpAt: null,
    token: { id: e.tokenId, scopes: e.scopes },
  });

  return {
    /** See the module comment. @returns the metadata and the token (this once) */
    async create(userId: string, input: TokenCreateInput): Promise<TokenCreated> {
      await deps.confirmSensitive(
        userId,
        { password: input.password, code: input.code },
        { password: TOKEN_STEP_UP_PASSWORD_MSG, code: TOKEN_STEP_UP_CODE_MSG },
      );
      const token = newAccessToken();
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        if (!(await deps.lockUser(tx, userId))) throw errors.unauthorized();
        if ((await repo.countLive(tx, userId, new Date(now))) >= MAX_LIVE_TOKENS) throw errors.conflict(TOKEN_LIMIT_MSG);
        return repo.insertToken(tx, {
          id: newId(),
          userId,
          name: input.name,
          tokenHash: hashAccessToken(token),
          scopes: input.scopes,
          createdAt: new Date(now),
          expiresAt: new Date(now + input.expires_in_days * 86_400_000),
        });
      });
      return { ...info(row), token };
    },

    /** The caller's live tokens, newest first. */
    async list(userId: string): Promise<{ tokens: TokenInfo[] }> {
      const rows = await repo.listLive(db, userId, new Date(clock.now()));
      return { tokens: rows.map(info) };
    },

    /** Revokes one of the caller's tokens, on every instance at once. @throws NOT_FOUND */
    async revoke(userId: string, tokenId: string): Promise<Record<string, never>> {
      if (!(await repo.revoke(db, userId, tokenId, new Date(clock.now())))) throw errors.notFound('No such access token');
      const event: Revocation = { kind: 'token', tokenId };
      apply(event);
      await revocations
        .publish(event)
        .catch((err: unknown) => log.error({ err, revocation: 'token' }, 'revocation broadcast failed'));
      return {};
    },

    /** The bearer lookup (see the module comment): the caller as a token, or null. */
    async resolve(token: string): Promise<AuthContext | null> {
      if (!isWellFormedAccessToken(token)) return null;
      const hash = hashAccessToken(token);
      const now = clock.now();
      const cached = cache.get(hash);
      if (cached) {
        const age = now - cached.cachedAt;
        if (age >= 0 && age < SESSION_CACHE_TTL_MS && now < cached.expiresAt) return toAuth(cached);
        cache.delete(hash);
      }
      const row = await repo.findLive(db, hash, new Date(now));
      if (!row) return null;
      if (!row.lastUsedAt || now - row.lastUsedAt.getTime() >= TOKEN_LAST_USED_INTERVAL_MS) {
        await repo.touch(db, row.id, new Date(now), new Date(now - TOKEN_LAST_USED_INTERVAL_MS));
      }
      const entry: CachedToken = {
        userId: row.userId,
        tokenId: row.id,
        scopes: row.scopes as TokenScope[],
        expiresAt: row.expiresAt.getTime(),
        cachedAt: now,
      };
      cache.set(hash, entry);
      if (cache.size > SESSION_CACHE_MAX_ENTRIES) {
        const oldest = cache.keys().next().value;
        if (oldest !== undefined) cache.delete(oldest);
      }
      return toAuth(entry);
    },
  };
}

export type TokensService = ReturnType<typeof createTokensService>;
