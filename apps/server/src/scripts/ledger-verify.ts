/**
 * `npm run ledger:verify`: checks the ledger's invariants (product §13) and reconciles it with the
 * orders, deposits and cash-outs it posts for (issue 38) on the configured database —
 * `DATABASE_URL`, or the PGlite database in `DATA_DIR` (stop the server first: PGlite allows one
 * process) — prints the counts it checked and exits 1 on any violation (2 when it cannot run).
 */
import { minorToPoints } from '@coffer/contract';
import { openDatabase } from '../db/client';
import { cannotRun, commandConfig, runCommand } from './command-config';
import { verifyLedger } from '../modules/ledger/ledger.verify';

function describeTarget(url: string | undefined, dataDir: string): string {
  if (!url) return `PGlite in ${dataDir}/db`;
  if (url === 'memory://') return 'PGlite in memory';
  try {
    const u = new URL(url);
    return `PostgreSQL ${u.host}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

async function main(): Promise<number> {
  const config = commandConfig();
  if (!config) return 2;
  const database = await openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    console.log(`ledger:verify on ${describeTarget(config.DATABASE_URL, config.dataDir)}`);
    const report = await verifyLedger(database.db);
    const c = report.counts;
    console.log(
      `checked ${c.transactions} transactions, ${c.entries} entries, ${c.userAccounts} user accounts, ${c.platformAccounts} platform accounts`,
    );
    console.log(`reconciled ${c.orders} orders, ${c.depositBills} deposit bills, ${c.withdrawBills} withdraw bills`);
    if (report.skipped.length) console.log(`skipped (columns not there yet): ${report.skipped.join(', ')}`);
    const platform = Object.entries(report.platformBalances).map(([kind, v]) => `${kind} ${minorToPoints(v)}`);
    if (platform.length) console.log(`platform balances (points): ${platform.join(', ')}`);
    if (report.ok) {
      console.log(
        'OK: every transaction sums to zero, every user balance equals the sum of its entries, no user balance is negative, every order, deposit and cash-out has exactly its postings',
      );
      return 0;
    }
    console.error(
      `FAILED: ${report.violations.length} violation(s)${report.violations.length >= 50 ? ' (first ones listed)' : ''}`,
    );
    for (const v of report.violations) console.error(`  ${v}`);
    return 1;
  } catch (err) {
    console.error(cannotRun('ledger:verify', err));
    return 2;
  } finally {
    await database.close();
  }
}

runCommand(main);
