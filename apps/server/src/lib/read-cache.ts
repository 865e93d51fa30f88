/**
 * A short-lived in-process cache of hot reads (docs/decisions/0020-reads-at-the-limit.md): the
 * public collection reads (`collection/detail`'s collection, seller and files; `market/collections`
 * pages) and the user row of `get/me` (the balances are never cached), so that the hot calls do not
 * read the database on every request. What follows is stated for the collection reads; the account
 * service states its own invalidations the same way.
 *
 * Correctness (the staleness bound): an entry is served for at most `ttlMs`
 * ({@link PUBLIC_READ_CACHE_TTL_MS}, 2 s) after its database read started. Every collection write
 * that goes through the collections service on this instance (create, add a file, publish, delete,
 * a sale, archiving on account deletion) empties the cache at once; other instances, and writes
 * inside a transaction that commits after the cache was emptied, are bounded by the TTL. So a buyer
 * sees a price, a status (a deleted or archived collection) or a file list at most 2 s old. Only
 * the rows are cached: who may see a collection (`purchased`, owner, status) is decided per
 * request from the cached row, and URLs are built per request.
 *
 * Concurrent misses of one key share one database read (the entry holds the promise); a failed
 * read is not kept.
 */

/** How long a cached public read is served, in milliseconds (the stated staleness bound). */
export const PUBLIC_READ_CACHE_TTL_MS = 2_000;
/** Entries kept at most per cache; the oldest go first. */
export const PUBLIC_READ_CACHE_MAX_ENTRIES = 5_000;

interface Entry<V> {
  value: Promise<V>;
  /** When the read started (ms, `now()`). */
  at: number;
}

export interface ReadCache<V> {
  /** The cached value of `key`, or `load()`'s (remembered for the TTL). Rejects as `load` does. */
  get(key: string, load: () => Promise<V>): Promise<V>;
  /** Forgets every entry (a write happened). */
  clear(): void;
  /** Forgets the entry of `key` (a write to that one row happened). */
  delete(key: string): void;
  readonly size: number;
}

/**
 * @param options.now monotonic milliseconds (default `performance.now`)
 * @param options.ttlMs default {@link PUBLIC_READ_CACHE_TTL_MS}; 0 disables caching
 * @param options.maxEntries default {@link PUBLIC_READ_CACHE_MAX_ENTRIES}
 */
export function createReadCache<V>(options: { now?: () => number; ttlMs?: number; maxEntries?: number } = {}): ReadCache<V> {
  const now = options.now ?? (() => performance.now());
  const ttlMs = options.ttlMs ?? PUBLIC_READ_CACHE_TTL_MS;
  const maxEntries = options.maxEntries ?? PUBLIC_READ_CACHE_MAX_ENTRIES;
  let entries = new Map<string, Entry<V>>();

  return {
    get(key, load) {
      const t = now();
      const hit = entries.get(key);
      if (hit && t - hit.at < ttlMs && t >= hit.at) return hit.value;
      if (ttlMs <= 0) return load();
      const owner = entries;
      const value = load();
      const entry = { value, at: t };
      entries.delete(key);
      entries.set(key, entry);
      if (entries.size > maxEntries) {
        const oldest = entries.keys().next().value;
        if (oldest !== undefined) entries.delete(oldest);
      }
      value.catch(() => {
        if (owner.get(key) === entry) owner.delete(key);
      });
      return value;
    },
    clear() {
      // A new map: reads that started before the write cannot put their result back.
      entries = new Map();
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
