/**
 * `npm run reserves:publish` (product §22, docs/decisions/0024-proof-of-liabilities.md): builds the
 * Merkle sum tree over every user's available + frozen balance at one instant of the ledger, each
 * balance in random shares at shuffled leaves (docs/decisions/0048-private-liability-proofs.md), reads
 * the reserve addresses (`RESERVE_ADDRESSES`) through the configured rail, stores the publication
 * and prints its root, total, user count and reserves.
 *
 * Runs on the configured database (`DATABASE_URL`, or the PGlite database in `DATA_DIR`: stop the
 * server first, PGlite allows one process) and applies pending migrations first.
 * Exit codes: 0 published; 1 publishing failed, or it succeeded but a reserve address could not be
 * read (the publication is stored, the failed read shows on the page); 2 cannot run (configuration).
 */
import { openDatabase } from '../db/client';
import { systemClock } from '../lib/clock';
import { createLedgerService } from '../modules/ledger/ledger.service';
import { createReservesService } from '../modules/reserves/reserves.service';
import { createPaymentProvider } from '../providers/payments/index';
import { commandConfig, runCommand } from './command-config';

async function main(): Promise<number> {
  const config = commandConfig();
  if (!config) return 2;
  const database = await openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    await database.migrate();
    const db = database.db;
    const provider = await createPaymentProvider(config, { db, clock: systemClock });
    const reserves = createReservesService({
      db,
      clock: systemClock,
      ledger: createLedgerService({ db }),
      provider,
      pointsPerUsd: config.POINTS_PER_USD,
      reserveAddresses: config.RESERVE_ADDRESSES,
    });
    const { publication: p } = await reserves.publish();
    console.log(`reserves:publish ${p.id} at ${new Date(p.published_at).toISOString()}`);
    console.log(`root ${p.root_hash}`);
    console.log(`total ${p.total} points over ${p.user_count} users`);
    let failed = 0;
    if (!p.reserves.length) console.log('reserves: none configured (RESERVE_ADDRESSES)');
    for (const r of p.reserves) {
      if (r.error) {
        failed++;
        console.error(`reserve ${r.network}:${r.currency}:${r.address} FAILED: ${r.error}`);
      } else {
        console.log(`reserve ${r.network}:${r.currency}:${r.address} ${r.balance} (${r.balance_usd} USD)`);
      }
    }
    console.log(`reserves ${p.reserves_usd} USD = ${p.reserves_points} points; liabilities ${p.total} points`);
    return failed ? 1 : 0;
  } catch (err) {
    console.error(`reserves:publish failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await database.close();
  }
}

runCommand(main, 1);
