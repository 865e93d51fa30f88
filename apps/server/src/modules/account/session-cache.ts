/**
 * A short-lived in-process cache of live sessions (token hash -> session), so that the signed-in
 * calls do not read the sessions table on every request.
 *
 * Correctness across instances: an entry lives at most `ttlMs` (SESSION_CACHE_TTL_MS, 5 s). A
 * revocation (logout, password change or reset, account deletion) is published on the revocation
 * bus (lib/shared-state.ts: Redis pub/sub or PostgreSQL LISTEN/NOTIFY) and every instance drops the
 * entry when it arrives; only while the bus is down does another instance accept the revoked token
 * until its entry ages out (docs/abuse.md). A session's own expiry is checked on every hit, and only
 * live sessions are cached.
 */

/** How long a cached session is trusted without reading the database again, in milliseconds. */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Entries kept at most; the oldest go first. */
export const SESSION_CACHE_MAX_ENTRIES = 10_000;

export interface SessionRef {
  userId: string;
  sessionId: string;
  /** When the holder last proved it is them on this session (ms; null: never), product.md "Step-up". */
  steppedUpAt?: number | null;
}

interface Entry extends SessionRef {
  /** Session expiry, ms since the epoch. */
  expiresAt: number;
  /** When the entry was read from the database, ms since the epoch. */
  cachedAt: number;
}

export function createSessionCache(options: { now: () => number; ttlMs?: number; maxEntries?: number }) {
  const ttlMs = options.ttlMs ?? SESSION_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? SESSION_CACHE_MAX_ENTRIES;
  const byHash = new Map<string, Entry>();

  const dropWhere = (match: (e: Entry) => boolean) => {
    for (const [hash, entry] of byHash) if (match(entry)) byHash.delete(hash);
  };

  return {
    /** The cached live session of a token hash, or null when absent, aged out or expired. */
    get(tokenHash: string): SessionRef | null {
      const entry = byHash.get(tokenHash);
      if (!entry) return null;
      const now = options.now();
      const age = now - entry.cachedAt;
      if (age < 0 || age >= ttlMs || now >= entry.expiresAt) {
        byHash.delete(tokenHash);
        return null;
      }
      return { userId: entry.userId, sessionId: entry.sessionId, steppedUpAt: entry.steppedUpAt ?? null };
    },
    /** Remembers a session just read from the database as live. */
    set(tokenHash: string, session: SessionRef & { expiresAt: number }): void {
      byHash.delete(tokenHash);
      byHash.set(tokenHash, { ...session, cachedAt: options.now() });
      if (byHash.size > maxEntries) {
        const oldest = byHash.keys().next().value;
        if (oldest !== undefined) byHash.delete(oldest);
      }
    },
    /**
     * Records a step-up made on this instance (ms). Another instance's entry keeps the older time
     * until it ages out (at most `ttlMs`): it may ask for the proof once more, never less.
     */
    markSteppedUp(sessionId: string, at: number): void {
      for (const entry of byHash.values()) if (entry.sessionId === sessionId) entry.steppedUpAt = at;
    },
    /** Forgets one session (logout). */
    dropSession(sessionId: string): void {
      dropWhere((e) => e.sessionId === sessionId);
    },
    /** Forgets every session of a user (password change or reset, deletion). */
    dropUser(userId: string): void {
      dropWhere((e) => e.userId === userId);
    },
    get size(): number {
      return byHash.size;
    },
  };
}

export type SessionCache = ReturnType<typeof createSessionCache>;
