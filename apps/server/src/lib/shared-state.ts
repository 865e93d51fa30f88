/**
 * What several instances of Coffer must share (docs/abuse.md, "Several instances"):
 *
 * - **Counters** ({@link CounterStore}): the per-user password budget. With `REDIS_URL` they live in
 *   Redis (one atomic Lua script per reservation), otherwise in this process's memory.
 * - **Revocations** ({@link RevocationBus}): a revoked session or a user's revoked sessions reach every
 *   instance at once, so no instance keeps trusting its 5 s session cache. Redis pub/sub with
 *   `REDIS_URL`; PostgreSQL LISTEN/NOTIFY without it; on PGlite (one process owns the database) an
 *   in-process bus.
 *
 * Every Redis key and channel starts with `REDIS_KEY_PREFIX`. The subscriber subscribes with retry
 * until Redis confirms it (a SUBSCRIBE that fails or times out is retried, never left unhandled), and
 * ioredis re-subscribes by itself after a reconnect.
 */
import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Redis } from 'ioredis';
import { sql, type SQL } from 'drizzle-orm';
import { listenPg } from './pg-listen';

/** A revocation every instance applies to its session cache. */
export type Revocation =
  | { kind: 'session'; sessionId: string }
  | { kind: 'user'; userId: string }
  /** One personal access token revoked (ADR 0058). */
  | { kind: 'token'; tokenId: string };

export interface RevocationBus {
  /** Sends `event` to every instance (this one included). Resolves once it is handed to the transport. */
  publish(event: Revocation): Promise<void>;
  /** Calls `handler` for each revocation from any instance. */
  subscribe(handler: (event: Revocation) => void): void;
  close(): Promise<void>;
}

/** Reservation of one attempt within a fixed window. */
export interface Reservation {
  allowed: boolean;
  /** Milliseconds until the window resets. */
  resetInMs: number;
}

export interface CounterStore {
  /**
   * Atomically counts one attempt under `key` unless `max` are already counted in the current
   * window (`windowMs`, fixed, starting at the first attempt).
   */
  reserve(key: string, max: number, windowMs: number): Promise<Reservation>;
  /** Gives back one attempt counted by {@link reserve} (e.g. the password was right). */
  release(key: string): Promise<void>;
  close(): Promise<void>;
}

/** Options for Redis connections: fail fast instead of queueing commands forever (rate limiting must not hang a request). */
export const REDIS_OPTIONS = {
  connectTimeout: 5_000,
  commandTimeout: 5_000,
  maxRetriesPerRequest: 2,
  enableOfflineQueue: true,
} as const;

const isRevocation = (v: unknown): v is Revocation => {
  const o = v as Record<string, unknown> | null;
  return (
    !!o &&
    ((o.kind === 'session' && typeof o.sessionId === 'string') ||
      (o.kind === 'user' && typeof o.userId === 'string') ||
      (o.kind === 'token' && typeof o.tokenId === 'string'))
  );
};

/** In-memory counters of one process; `now` in ms. */
export function memoryCounters(now: () => number): CounterStore {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    async reserve(key, max, windowMs) {
      const t = now();
      let w = windows.get(key);
      if (!w || t >= w.resetAt) {
        w = { count: 0, resetAt: t + windowMs };
        windows.set(key, w);
      }
      if (windows.size > 100_000) {
        for (const [k, v] of windows) if (t >= v.resetAt) windows.delete(k);
      }
      if (w.count >= max) return { allowed: false, resetInMs: w.resetAt - t };
      w.count++;
      return { allowed: true, resetInMs: w.resetAt - t };
    },
    async release(key) {
      const w = windows.get(key);
      if (w && w.count > 0) w.count--;
    },
    async close() {},
  };
}

const RESERVE_SCRIPT = `
local c = redis.call('INCR', KEYS[1])
if c == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]); ttl = tonumber(ARGV[2]) end
if c > tonumber(ARGV[1]) then redis.call('DECR', KEYS[1]); return {0, ttl} end
return {1, ttl}`;
const RELEASE_SCRIPT = `
local c = tonumber(redis.call('GET', KEYS[1]) or '0')
if c > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

/** Counters in Redis under `prefix`; each reservation is one Lua script (atomic across instances). */
export function redisCounters(redis: Redis, prefix: string): CounterStore {
  return {
    async reserve(key, max, windowMs) {
      const [allowed, ttl] = (await redis.eval(RESERVE_SCRIPT, 1, `${prefix}${key}`, String(max), String(windowMs))) as [
        number,
        number,
      ];
      return { allowed: allowed === 1, resetInMs: Number(ttl) };
    },
    async release(key) {
      await redis.eval(RELEASE_SCRIPT, 1, `${prefix}${key}`);
    },
    async close() {},
  };
}

/**
 * Counters in `primary` (Redis) that fall back to `fallback` (memory) for a call Redis cannot answer:
 * a Redis outage bounds guesses per instance instead of failing the request with a 500.
 */
export function withFallback(primary: CounterStore, fallback: CounterStore, log: BusLog): CounterStore {
  return {
    async reserve(key, max, windowMs) {
      try {
        return await primary.reserve(key, max, windowMs);
      } catch (err) {
        log.warn({ err }, 'redis counters unavailable; counting in memory for this call');
        return fallback.reserve(key, max, windowMs);
      }
    },
    async release(key) {
      await primary.release(key).catch(() => fallback.release(key));
    },
    async close() {},
  };
}

/** A bus inside one process (PGlite: one process owns the database). */
export function localBus(): RevocationBus {
  const emitter = new EventEmitter();
  return {
    async publish(event) {
      emitter.emit('revocation', event);
    },
    subscribe(handler) {
      emitter.on('revocation', handler);
    },
    async close() {
      emitter.removeAllListeners();
    },
  };
}

interface BusLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/**
 * Subscribes `subscriber` to `channel`, retrying (1 s, then up to 10 s apart) until Redis confirms.
 * Every attempt's promise is handled; `stopped()` ends the retries (on close).
 * @returns a promise that resolves once subscribed, or when stopped
 */
async function subscribeUntilHeld(
  subscriber: Redis,
  channel: string,
  log: BusLog,
  stopped: () => boolean,
  onStop: Promise<void>,
): Promise<void> {
  for (let attempt = 0; !stopped(); attempt++) {
    try {
      // A SUBSCRIBE waiting for a connection that never comes is abandoned on close (its late rejection is handled here).
      const subscribing = subscriber.subscribe(channel);
      subscribing.catch(() => undefined);
      await Promise.race([subscribing, onStop]);
      return;
    } catch (err) {
      if (stopped()) return;
      log.warn({ err, attempt }, 'revocation bus: subscribe failed; retrying');
      await new Promise((r) => setTimeout(r, Math.min(10_000, 1_000 * (attempt + 1))).unref());
    }
  }
}

/**
 * Redis pub/sub bus on `${prefix}revocations`. The subscriber is a second connection (a subscribed
 * connection can run nothing else); {@link RedisBus.ready} resolves once SUBSCRIBE is confirmed.
 */
export function redisBus(publisher: Redis, url: string, prefix: string, log: BusLog): RevocationBus & { ready: Promise<void> } {
  const channel = `${prefix}revocations`;
  // No command timeout on the subscriber: a SUBSCRIBE is retried by subscribeUntilHeld instead.
  const subscriber = new Redis(url, { connectTimeout: 5_000, maxRetriesPerRequest: null, autoResubscribe: true });
  subscriber.on('error', (err) => log.warn({ err }, 'revocation bus: redis subscriber error'));
  const handlers: ((e: Revocation) => void)[] = [];
  let closed = false;
  let stop: () => void = () => undefined;
  const onStop = new Promise<void>((r) => (stop = r));
  subscriber.on('message', (ch: string, message: string) => {
    if (ch !== channel) return;
    let event: unknown;
    try {
      event = JSON.parse(message);
    } catch {
      return;
    }
    if (isRevocation(event)) for (const h of handlers) h(event);
  });
  const ready = subscribeUntilHeld(subscriber, channel, log, () => closed, onStop);
  return {
    ready,
    async publish(event) {
      await publisher.publish(channel, JSON.stringify(event));
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async close() {
      closed = true;
      stop();
      handlers.length = 0;
      // QUIT only on a live connection; otherwise drop it at once (a queued QUIT would wait for ever).
      if (subscriber.status === 'ready') await subscriber.quit().catch(() => subscriber.disconnect());
      else subscriber.disconnect();
    },
  };
}

/** How long a PostgreSQL publish waits for its own notification to come back (then it returns anyway). */
const ECHO_WAIT_MS = 1_000;

/**
 * PostgreSQL LISTEN/NOTIFY bus on channel `coffer_revocations`: a dedicated client LISTENs
 * (reconnecting after a loss, 1-10 s apart); `publish` runs `pg_notify` on the pool, then waits (at
 * most ECHO_WAIT_MS) until its own listener got it back: by then the other instances' listeners have
 * been sent it too, so a caller answered after a logout rarely races the other instances.
 */
export function postgresBus(
  url: string,
  notify: (channel: string, payload: string) => Promise<unknown>,
  log: BusLog,
): RevocationBus & { ready: Promise<void> } {
  const channel = 'coffer_revocations';
  const handlers: ((e: Revocation) => void)[] = [];
  const echoes = new Map<string, () => void>();
  const listener = listenPg({
    url,
    channel,
    label: 'revocation bus',
    log,
    onNotify: (payload) => {
      let event: unknown;
      try {
        event = JSON.parse(payload);
      } catch {
        return;
      }
      if (!isRevocation(event)) return;
      for (const h of handlers) h(event);
      const nonce = (event as { nonce?: unknown }).nonce;
      if (typeof nonce === 'string') echoes.get(nonce)?.();
    },
  });
  return {
    ready: listener.ready,
    async publish(event) {
      const nonce = randomUUID();
      let timer: NodeJS.Timeout | undefined;
      const echoed = new Promise<void>((resolve) => {
        echoes.set(nonce, resolve);
        timer = setTimeout(resolve, listener.listening() ? ECHO_WAIT_MS : 0);
      });
      try {
        await notify(channel, JSON.stringify({ ...event, nonce }));
        await echoed;
      } finally {
        clearTimeout(timer);
        echoes.delete(nonce);
      }
    },
    subscribe(handler) {
      handlers.push(handler);
    },
    async close() {
      handlers.length = 0;
      for (const resolve of echoes.values()) resolve();
      await listener.close();
    },
  };
}

/** What {@link openSharedState} opened; `close` releases every connection. */
export interface SharedState {
  /** The Redis connection when `REDIS_URL` is set (also given to the rate-limit plugin). */
  redis: Redis | null;
  counters: CounterStore;
  revocations: RevocationBus;
  close(): Promise<void>;
}

/** How long a start waits for the revocation bus to hold before going on (it keeps retrying after). */
const BUS_READY_WAIT_MS = 10_000;

async function waitAtMost(ready: Promise<void>, ms: number, log: BusLog): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)));
  const outcome = await Promise.race([ready.then(() => 'ready' as const), late]);
  clearTimeout(timer);
  if (outcome === 'late')
    log.error(
      {},
      'revocation bus not subscribed yet; still retrying (revocations reach other instances after the 5 s session cache until then)',
    );
}

/**
 * Opens the shared state the configuration asks for: Redis counters and pub/sub with `REDIS_URL`,
 * else memory counters (`now` in ms) and LISTEN/NOTIFY on PostgreSQL or an in-process bus on PGlite.
 */
export async function openSharedState(
  config: { REDIS_URL?: string | undefined; REDIS_KEY_PREFIX: string; DATABASE_URL?: string | undefined },
  database: { kind: 'pglite' | 'postgres'; db: { execute(query: SQL): Promise<unknown> } },
  clock: { now(): number },
  log: BusLog,
): Promise<SharedState> {
  if (config.REDIS_URL) {
    const redis = new Redis(config.REDIS_URL, REDIS_OPTIONS);
    redis.on('error', (err) => log.warn({ err }, 'redis connection error'));
    const bus = redisBus(redis, config.REDIS_URL, config.REDIS_KEY_PREFIX, log);
    await waitAtMost(bus.ready, BUS_READY_WAIT_MS, log);
    return {
      redis,
      counters: withFallback(
        redisCounters(redis, config.REDIS_KEY_PREFIX),
        memoryCounters(() => clock.now()),
        log,
      ),
      revocations: bus,
      async close() {
        await bus.close();
        if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
        else redis.disconnect();
      },
    };
  }
  const counters = memoryCounters(() => clock.now());
  if (database.kind === 'postgres' && config.DATABASE_URL) {
    const bus = postgresBus(
      config.DATABASE_URL,
      (channel, payload) => database.db.execute(sql`select pg_notify(${channel}, ${payload})`),
      log,
    );
    await waitAtMost(bus.ready, BUS_READY_WAIT_MS, log);
    return { redis: null, counters, revocations: bus, close: () => bus.close() };
  }
  const bus = localBus();
  return { redis: null, counters, revocations: bus, close: () => bus.close() };
}

/**
 * Fastify's `trustProxy` from `TRUST_PROXY` (docs/abuse.md, "Behind a reverse proxy"): unset → false
 * (the socket address is the client); a number → that many proxy hops; otherwise the listed
 * addresses/CIDRs.
 */
export function trustProxySetting(value: string | undefined): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (!value) return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    // What Fastify does with a number (proxy-addr: trust the first `hops` hops from the socket).
    return (_address, hop) => hop < hops;
  }
  return value
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}
