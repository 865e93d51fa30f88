/**
 * `npm run sweep [-- --rail evm|tron] [--dry-run] [--network ETH] [--min-usd 1]`: moves the tokens
 * on Coffer's deposit addresses to the hot wallet of every self-custodial rail that `PAYMENTS` lists
 * (`evm`, `tron`; see docs/payments.md, "Sweeping"), or of `--rail` alone. `npm run evm:sweep` is
 * `sweep --rail evm`. Uses the server's configuration and database (`DATABASE_URL`, or the PGlite
 * database in `DATA_DIR`: stop the server first on PGlite).
 * - evm: funds each address's gas from the hot wallet first; `--network` picks one network,
 *   `--min-usd` (default 1) leaves smaller balances.
 * - tron: funds each address with the TRX its energy needs, or with `TRON_SWEEP_ENERGY=delegate`
 *   lends it the hot wallet's staked energy and takes it back (ADR 0064), only for balances of at
 *   least `--min-usd` (default `TRON_SWEEP_MIN_USDT`, 5); prints the TRX burned per USDT swept.
 * Exits 0 when done, 1 when a sweep failed, 2 when it cannot run.
 */
import { parseArgs } from 'node:util';
import { formatUnits } from 'viem';
import { openDatabase } from '../db/client';
import { commandConfig } from './command-config';
import { createEvmChains, shortReason } from '../providers/payments/evm/chain';
import { sweepDeposits } from '../providers/payments/evm/sweep';
import { createTronKeys } from '../providers/payments/tron/index';
import { createTronNode } from '../providers/payments/tron/node';
import { sweepTron, trxPerTokenSwept } from '../providers/payments/tron/sweep';

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      rail: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      network: { type: 'string' },
      'min-usd': { type: 'string' },
    },
  });
  if (values['min-usd'] !== undefined && !/^\d+(\.\d+)?$/.test(values['min-usd'])) {
    console.error('--min-usd must be a number of USD such as 1 or 0.5');
    return 2;
  }
  if (values.rail && values.rail !== 'evm' && values.rail !== 'tron') {
    console.error('--rail must be evm or tron (the rails with deposit addresses to sweep)');
    return 2;
  }
  const config = commandConfig();
  if (!config) return 2;
  const wanted = (rail: 'evm' | 'tron') => (!values.rail || values.rail === rail) && config.rails.includes(rail);
  if (!wanted('evm') && !wanted('tron')) {
    console.error(`sweep needs PAYMENTS to list evm or tron${values.rail ? ` (--rail ${values.rail})` : ''}; PAYMENTS is ${config.PAYMENTS} (docs/payments.md)`);
    return 2;
  }
  const dryRun = values['dry-run'];
  const database = await openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    await database.migrate();
    if (wanted('evm') && config.evm) {
      const chains = createEvmChains(config.evm);
      if (!chains.hotWallet) {
        console.error('EVM_HOT_WALLET_KEY is not set: there is no hot wallet to sweep to');
        return 2;
      }
      console.log(`evm: sweep to the hot wallet ${chains.hotWallet.address}${dryRun ? ' (dry run: nothing is sent)' : ''}`);
      const results = await sweepDeposits(
        { db: database.db, chains, now: () => Date.now() },
        { dryRun, minUsd: values['min-usd'] ?? '1', print: (line) => console.log(line), ...(values.network ? { network: values.network } : {}) },
      );
      console.log(`evm: ${dryRun ? 'would sweep' : 'swept'} ${results.length} balance(s)`);
    }
    if (wanted('tron') && config.tron) {
      const keys = createTronKeys(config.tron);
      if (!keys.hot) {
        console.error('TRON_HOT_WALLET_KEY is not set: there is no hot wallet to sweep to');
        return 2;
      }
      console.log(
        `tron: sweep to the hot wallet ${keys.hot.address}, energy ${config.tron.sweepEnergy === 'delegate' ? 'lent from its stake (TRON_SWEEP_ENERGY=delegate)' : 'paid by burning TRX'}${dryRun ? ' (dry run: nothing is sent)' : ''}`,
      );
      const results = await sweepTron(
        { db: database.db, node: createTronNode(config.tron), settings: config.tron, keys, now: () => Date.now() },
        { dryRun, print: (line) => console.log(line), ...(values['min-usd'] ? { minTokens: values['min-usd'] } : {}) },
      );
      const burned = results.reduce((sum, r) => sum + r.feeSun, 0n);
      console.log(`tron: ${dryRun ? 'would sweep' : 'swept'} ${results.length} balance(s)${dryRun ? '' : `, ${formatUnits(burned, 6)} TRX burned`}`);
      const ratio = await trxPerTokenSwept(database.db, config.tron.token.decimals);
      if (ratio) console.log(`tron: ${ratio} TRX burned per USDT swept, over every sweep so far`);
    }
    return 0;
  } catch (err) {
    console.error(`sweep stopped: ${err instanceof Error ? shortReason(err) : String(err)}`);
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
