/**
 * Cross-instance wake-up of the payout worker (docs/payments.md, "Payout worker"): `withdraw/confirm`
 * runs `pg_notify('coffer_payouts', <provider>)` inside its transaction, so PostgreSQL delivers it
 * on commit to every instance LISTENing here; each one's worker then drains the queue at once
 * instead of waiting for its next 2 s tick. The tick stays as the fallback (a lost notification, a
 * lease that ran out, a pending payout to ask about again), so a missed wake-up only costs latency.
 *
 * One dedicated `pg.Client` per instance (a LISTENing connection cannot come from the pool); after a
 * loss it reconnects 1-10 s apart and wakes the worker once, in case something was confirmed
 * meanwhile. On PGlite (one process owns the database) the in-process `onPayoutWork` is enough.
 */
import pg from 'pg';
import { PAYOUT_WAKE_CHANNEL } from './withdrawals.service';

interface WakeLog {
  warn(obj: object, msg: string): void;
}

export interface PayoutWakeListener {
  /** Resolves once LISTEN holds (or the listener was closed first). */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * LISTENs on {@link PAYOUT_WAKE_CHANNEL} at `url` and calls `onWake` for each notification whose
 * payload is `provider` (several deployments may share one database with different rails).
 */
export function listenForPayoutWork(url: string, provider: string, onWake: () => void, log: WakeLog): PayoutWakeListener {
  let closed = false;
  let client: pg.Client | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (markReady = r));

  const connect = async (attempt: number): Promise<void> => {
    if (closed) return markReady();
    const c = new pg.Client({ connectionString: url });
    c.on('error', (err) => log.warn({ err }, 'payout wake-up: listener connection error'));
    c.on('notification', (n) => {
      if (n.channel === PAYOUT_WAKE_CHANNEL && n.payload === provider) onWake();
    });
    c.on('end', () => {
      if (closed || client !== c) return;
      client = null;
      log.warn({}, 'payout wake-up: listener connection lost; reconnecting');
      setTimeout(() => void connect(0), 1_000).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${PAYOUT_WAKE_CHANNEL}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return markReady();
      }
      client = c;
      markReady();
      // Whatever was confirmed while nothing listened.
      if (attempt > 0) onWake();
    } catch (err) {
      await c.end().catch(() => undefined);
      if (closed) return markReady();
      log.warn({ err, attempt }, 'payout wake-up: LISTEN failed; retrying');
      setTimeout(() => void connect(attempt + 1), Math.min(10_000, 1_000 * (attempt + 1))).unref();
    }
  };
  void connect(0);

  return {
    ready,
    async close() {
      closed = true;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
