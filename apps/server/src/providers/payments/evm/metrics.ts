/**
 * The EVM rail's gauges on `/metrics` (docs/operations.md "Probes and metrics"), added when
 * `PAYMENTS=evm`: `coffer_evm_scanned_block` / `coffer_evm_head_block` / `coffer_evm_watcher_lag_blocks`
 * `{chain_id,network}` (the head is asked of the network's RPC with a 3 s timeout; on failure the
 * head and lag are left out and `coffer_evm_head_errors_total` counts it) and
 * `coffer_evm_payouts_behind_gap` (payouts waiting behind an unfilled nonce, from the database).
 */
import { sql } from 'drizzle-orm';
import { Counter } from 'prom-client';
import type { Db } from '../../../db/client';
import type { MetricsRegistry } from '../../../lib/metrics';
import type { EvmSettings } from './config';
import { countPayoutsBehindGap } from './payouts';

/** Asks an EVM node for its latest block number (JSON-RPC eth_blockNumber, 3 s timeout). */
async function headBlock(rpcUrl: string): Promise<number> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    signal: AbortSignal.timeout(3_000),
  });
  const body = (await res.json()) as { result?: unknown };
  if (typeof body.result !== 'string' || !/^0x[0-9a-f]+$/i.test(body.result)) throw new Error('bad eth_blockNumber answer');
  return Number(BigInt(body.result));
}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await db.execute(query)) as unknown as Rows<T>).rows;

/** Adds the EVM rail's gauges and counter to `metrics`. */
export function addEvmMetrics(metrics: MetricsRegistry, { settings, db }: { settings: EvmSettings; db: Db }): void {
  const registry = metrics.registry;
  const networks = settings.networks;
  if (networks.length) {
    const headErrors = new Counter({
      name: 'coffer_evm_head_errors_total',
      help: 'Scrapes where a network RPC did not tell its head block in time.',
      labelNames: ['chain_id', 'network'],
      registers: [registry],
    });
    type ChainRow = { chain_id: number; last_block: string | number };
    const chainState = async () => {
      const scanned = new Map(
        (await rowsOf<ChainRow>(db, sql`select chain_id, last_block from evm_scan_state`)).map((r) => [
          Number(r.chain_id),
          Number(r.last_block),
        ]),
      );
      return Promise.all(
        networks.map(async (n) => {
          const labels = { chain_id: n.chainId, network: n.name };
          const head = await headBlock(n.rpcUrl).catch(() => {
            headErrors.inc(labels);
            return undefined;
          });
          return { labels, scanned: scanned.get(n.chainId), head };
        }),
      );
    };
    let chainScrape: ReturnType<typeof chainState> | undefined;
    const chains = () => (chainScrape ??= chainState().finally(() => setImmediate(() => (chainScrape = undefined))));
    const labelNames = ['chain_id', 'network'];
    metrics.addGauge({
      name: 'coffer_evm_scanned_block',
      help: 'Last block the deposit watcher has scanned, per chain.',
      labelNames,
      collect: async () =>
        (await chains()).flatMap((c) => (c.scanned === undefined ? [] : [{ labels: c.labels, value: c.scanned }])),
    });
    metrics.addGauge({
      name: 'coffer_evm_head_block',
      help: "The chain's latest block as its RPC reports it.",
      labelNames,
      collect: async () => (await chains()).flatMap((c) => (c.head === undefined ? [] : [{ labels: c.labels, value: c.head }])),
    });
    metrics.addGauge({
      name: 'coffer_evm_payouts_behind_gap',
      help: 'EVM payouts waiting behind a nonce gap that a filler has not closed yet (docs/payments.md, EVM rail).',
      collect: async () => [{ value: await countPayoutsBehindGap(db) }],
    });
    metrics.addGauge({
      name: 'coffer_evm_watcher_lag_blocks',
      help: 'Blocks between the chain head and the last block the deposit watcher scanned.',
      labelNames,
      collect: async () =>
        (await chains()).flatMap((c) =>
          c.head === undefined || c.scanned === undefined ? [] : [{ labels: c.labels, value: Math.max(0, c.head - c.scanned) }],
        ),
    });
  }
}
