/**
 * Idempotency keys (draft-ietf-httpapi-idempotency-key-header; docs/decisions/0051-idempotency-keys.md):
 * one row per (user, key) sent on a call of the endpoint table marked `idempotent`.
 *
 * A row is claimed by the first request (`locked_at` set, `status` null), then holds that request's
 * successful answer (`status`, `response`: the exact bytes sent) until `expires_at` (24 h after the
 * claim). A failed first request deletes its row: nothing was done, so a retry runs again.
 * Times are timestamptz.
 */
import { index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

const ts = () => timestamp({ withTimezone: true, mode: 'date' });

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** The caller (keys are scoped per user; no foreign key: a deleted account's keys just expire). */
    userId: text().notNull(),
    /** The header's value, 1-255 visible ASCII characters. */
    key: text().notNull(),
    /** The call's operationId (endpoint table key). */
    operation: text().notNull(),
    /** SHA-256 hex of the operation and the canonical JSON of the validated body. */
    fingerprint: text().notNull(),
    /** When the processing request claimed the key; null once its answer is stored. */
    lockedAt: ts(),
    /** The stored answer's HTTP status; null while the first request runs. */
    status: integer(),
    /** The stored answer's body, as sent (JSON text). */
    response: text(),
    createdAt: ts().notNull(),
    expiresAt: ts().notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_expires_idx').on(t.expiresAt)],
);
