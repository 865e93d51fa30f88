/**
 * Cross-instance wake-up of the payout worker (docs/payments.md, "Payout worker"): `withdraw/confirm`
 * runs `pg_notify('coffer_payouts', <provider>)` inside its transaction, so PostgreSQL delivers it
 * on commit to every instance LISTENing here; each one's worker then drains the queue at once
 * instead of waiting for its next 2 s tick. The tick stays as the fallback (a lost notification, a
 * lease that ran out, a pending payout to ask about again), so a missed wake-up only costs latency.
 *
 * One dedicated LISTEN connection per instance (lib/pg-listen.ts); after a loss it reconnects 1-10 s
 * apart and wakes the worker once, in case something was confirmed meanwhile. On PGlite (one process owns the database) the in-process `onPayoutWork` is enough.
 */
import { listenPg, type ListenLog, type PgListener } from '../../lib/pg-listen';
import { PAYOUT_WAKE_CHANNEL } from './withdrawals.service';

export type PayoutWakeListener = Pick<PgListener, 'ready' | 'close'>;

/**
 * LISTENs on {@link PAYOUT_WAKE_CHANNEL} at `url` and calls `onWake` for each notification whose
 * payload is `provider` (several deployments may share one database with different rails), and
 * once after each reconnection.
 */
export function listenForPayoutWork(url: string, provider: string, onWake: () => void, log: ListenLog): PayoutWakeListener {
  return listenPg({
    url,
    channel: PAYOUT_WAKE_CHANNEL,
    label: 'payout wake-up',
    log,
    onNotify: (payload) => {
      if (payload === provider) onWake();
    },
    onReconnect: onWake,
  });
}
