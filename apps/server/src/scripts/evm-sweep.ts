/**
 * `npm run evm:sweep [-- --dry-run] [--network ETH] [--min-usd 1]`: moves the tokens on Coffer's
 * deposit addresses to the hot wallet (PAYMENTS=evm; see docs/payments.md, "Sweeping"), funding
 * each address's gas from the hot wallet first. Uses the server's configuration (EVM_* variables,
 * `DATABASE_URL` or the PGlite database in `DATA_DIR` — stop the server first on PGlite).
 * Exits 0 when done, 1 when a sweep failed, 2 when it cannot run.
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/client';
import { commandConfig } from './command-config';
import { createEvmChains, shortReason } from '../providers/payments/evm/chain';
import { sweepDeposits } from '../providers/payments/evm/sweep';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'dry-run': { type: 'boolean', default: false },
      network: { type: 'string' },
      'min-usd': { type: 'string', default: '1' },
    },
  });
  if (!/^\d+(\.\d+)?$/.test(values['min-usd'] ?? '')) {
    console.error('--min-usd must be a number of USD such as 1 or 0.5');
    return 2;
  }
  const config = commandConfig();
  if (!config) return 2;
  if (!config.evm) {
    console.error('evm:sweep needs PAYMENTS=evm and its EVM_* variables (docs/payments.md)');
    return 2;
  }
  const database = await openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    await database.migrate();
    const chains = createEvmChains(config.evm);
    if (!chains.hotWallet) {
      console.error('EVM_HOT_WALLET_KEY is not set: there is no hot wallet to sweep to');
      return 2;
    }
    console.log(
      `evm:sweep to the hot wallet ${chains.hotWallet.address}${values['dry-run'] ? ' (dry run: nothing is sent)' : ''}`,
    );
    const results = await sweepDeposits(
      { db: database.db, chains, now: () => Date.now() },
      {
        dryRun: values['dry-run'],
        minUsd: values['min-usd'],
        print: (line) => console.log(line),
        ...(values.network ? { network: values.network } : {}),
      },
    );
    console.log(`${values['dry-run'] ? 'would sweep' : 'swept'} ${results.length} balance(s)`);
    return 0;
  } catch (err) {
    console.error(`evm:sweep stopped: ${shortReason(err)}`);
    return 1;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(2);
  },
);
