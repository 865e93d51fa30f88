/**
 * The simulation's tools (simulation.test.ts; TigerBeetle's VOPR is the model): a small
 * deterministic PRNG, and a fault injector that cuts a database transaction between two statements.
 *
 * The injector wraps the app's `db.transaction` once: each transaction's driver client (`query`, and
 * PGlite's `exec`) is wrapped while its callback runs, and an armed fault makes the k-th statement
 * of the armed operation fail — before it is sent, or after it ran (its answer lost). From then on
 * the transaction is cut: every later statement fails, and it cannot commit even if the code
 * swallowed the error (a cut connection commits nothing). Statements outside transactions, and
 * BEGIN/COMMIT/ROLLBACK (sent outside the callback), are never cut.
 */
import type { Db } from '../db/client';

/** mulberry32: a 32-bit seed, a stream of floats in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random choices from one seed. */
export class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new Error('pick from nothing');
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** A key of `weights` drawn with its weight (0: never). */
  weighted<K extends string>(weights: Record<K, number>): K {
    const entries = Object.entries(weights) as [K, number][];
    const total = entries.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [k, w] of entries) {
      r -= w;
      if (r < 0) return k;
    }
    return entries[entries.length - 1]![0];
  }
}

/** The error an injected fault raises (never an AppError: the app must answer it as an internal error). */
export class SimFault extends Error {
  constructor(msg: string) {
    super(`SIM_FAULT: ${msg}`);
  }
}

export interface ArmedFault {
  /** The statement (1-based, counted over every transaction of the operation) that fails. */
  k: number;
  /** 'before': the statement is not sent; 'after': it runs, then its answer is lost. */
  mode: 'before' | 'after';
  count: number;
  fired: boolean;
}

export interface FaultInjector {
  /** Arms a fault for the next statements (until {@link disarm}). */
  arm(k: number, mode: ArmedFault['mode']): void;
  /** Disarms; @returns the fault that was armed (with `fired` and the statements counted), if any. */
  disarm(): ArmedFault | null;
  /** Puts the original `db.transaction` back. */
  uninstall(): void;
}

type DriverClient = Record<string, unknown>;

/** Wraps `db.transaction` (see the module comment). */
export function installFaults(db: Db): FaultInjector {
  const original = db.transaction;
  const ownBefore = Object.prototype.hasOwnProperty.call(db, 'transaction');
  let current: ArmedFault | null = null;
  const wrapped = function (this: unknown, fn: (tx: unknown) => Promise<unknown>, config?: unknown) {
    return (original as (f: (tx: unknown) => Promise<unknown>, c?: unknown) => Promise<unknown>).call(
      db,
      async (tx: unknown) => {
        const client = (tx as { session?: { client?: DriverClient } }).session?.client;
        let cut = false;
        const restores: (() => void)[] = [];
        for (const name of ['query', 'exec'] as const) {
          const method = client?.[name];
          if (!client || typeof method !== 'function') continue;
          const own = Object.prototype.hasOwnProperty.call(client, name);
          client[name] = async function (this: unknown, ...args: unknown[]) {
            if (cut) throw new SimFault('the transaction was cut before this statement');
            const f = current;
            if (f && !f.fired && ++f.count === f.k) {
              f.fired = true;
              cut = true;
              if (f.mode === 'after') {
                await (method as (...a: unknown[]) => Promise<unknown>).apply(this, args);
                throw new SimFault(`statement ${f.k} ran, its answer was lost`);
              }
              throw new SimFault(`statement ${f.k} was never sent`);
            }
            return (method as (...a: unknown[]) => Promise<unknown>).apply(this, args);
          };
          restores.push(() => {
            if (own) client[name] = method;
            else delete client[name];
          });
        }
        try {
          const out = await fn(tx);
          if (cut) throw new SimFault('a cut transaction cannot commit');
          return out;
        } finally {
          for (const r of restores) r();
        }
      },
      config,
    );
  };
  (db as unknown as { transaction: unknown }).transaction = wrapped;
  return {
    arm(k, mode) {
      current = { k, mode, count: 0, fired: false };
    },
    disarm() {
      const f = current;
      current = null;
      return f;
    },
    uninstall() {
      if (ownBefore) (db as unknown as { transaction: unknown }).transaction = original;
      else delete (db as unknown as { transaction?: unknown }).transaction;
    },
  };
}
