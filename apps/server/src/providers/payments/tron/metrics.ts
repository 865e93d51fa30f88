/**
 * The TRON rail's gauges on `/metrics` (docs/operations.md "Probes and metrics"), added when
 * `PAYMENTS` lists tron, read from the database only: `coffer_tron_scanned_block` (the last
 * solidified block the deposit watcher has read), `coffer_tron_payouts_sending` (payouts with a
 * transaction not yet final) and `coffer_tron_sweep_trx_per_usdt` (TRX burned per USDT swept, over
 * every finished sweep: funding transfers and sweeps together).
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { tronPayouts, tronScanState } from '../../../db/schema/index';
import type { MetricsRegistry } from '../../../lib/metrics';
import type { TronSettings } from './config';
import { trxPerTokenSwept } from './sweep';

/** Adds the TRON rail's gauges to `metrics`. */
export function addTronMetrics(metrics: MetricsRegistry, { settings, db }: { settings: TronSettings; db: Db }): void {
  metrics.addGauge({
    name: 'coffer_tron_scanned_block',
    help: 'Last solidified TRON block the deposit watcher has read.',
    collect: async () => {
      const [row] = await db.select().from(tronScanState).where(eq(tronScanState.cursor, 'solid'));
      return row ? [{ value: Number(row.lastBlock) }] : [];
    },
  });
  metrics.addGauge({
    name: 'coffer_tron_payouts_sending',
    help: 'TRON payouts whose transaction is not final yet (signed, broadcast or mined, not solidified).',
    collect: async () => {
      const [row] = await db.select({ n: sql<string>`count(*)::text` }).from(tronPayouts).where(eq(tronPayouts.status, 'sending'));
      return [{ value: Number(row?.n ?? 0) }];
    },
  });
  metrics.addGauge({
    name: 'coffer_tron_sweep_trx_per_usdt',
    help: 'TRX burned per USDT swept on TRON, over every finished sweep (funding and sweep transactions).',
    collect: async () => {
      const ratio = await trxPerTokenSwept(db, settings.token.decimals);
      return ratio === null ? [] : [{ value: Number(ratio) }];
    },
  });
}
