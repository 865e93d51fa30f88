/**
 * The `tron` payment provider (product §11, §14, §15; docs/payments.md "tron — USDT on TRON"):
 * self-custodial USDT (TRC-20) on TRON, against any node's HTTP API, with no third party.
 *
 * - Currency: `usdttrc20` (network `TRX`, base58 `T...` addresses, no memo); cash-out when a hot
 *   wallet key is configured.
 * - Deposits: each bill gets the address m/44'/195'/0'/0/i of the HD seed, with i from a database
 *   sequence (never reused); the watcher ({@link createTronWatcher}) credits Transfer events to it
 *   from solidified blocks.
 * - Payouts: TRC-20 transfers from the hot wallet (./payouts.ts), signed locally and stored under
 *   their txid before broadcast.
 * - Fees: energy x the chain's energy price plus bandwidth, in USD at `TRON_TRX_USD_PRICE`.
 * - Reserves: the token's `balanceOf` at each `TRX:usdttrc20:T...` address.
 */
import type { HDKey } from '@scure/bip32';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { formatUnits } from 'viem';
import type { Db } from '../../../db/client';
import { tronDepositAddresses } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { masterKey } from '../evm/config';
import { createAdvisoryLock } from '../evm/lock';
import { CURRENCY_LOGO_PATH } from '../sandbox';
import type { PaymentProvider, ProviderCurrency } from '../types';
import { addressOfKey, depositKey, isTronAddress, TRON_WALLET_REGEX, tronDepositPath } from './address';
import type { TronSettings } from './config';
import { createTronNode, type TronNode } from './node';
import { createTronPayouts, type HotWallet } from './payouts';
import { createTronWatcher, ensureScanState, TRON_USDT_CODE, type TronWatcher } from './watcher';

/** Advisory lock key of the TRON deposit watcher: one instance scans at a time. */
export const TRON_WATCHER_LOCK_KEY = 727_070_020n;

export interface TronProviderDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The PostgreSQL URL for the watcher's advisory lock (unset on PGlite). */
  databaseUrl: string | undefined;
}

/** Keys of the rail: deposit keys derived on demand, the hot wallet. Secrets stay inside. */
export interface TronKeys {
  /** The deposit address at HD index `index` and its private key (64 hex digits). */
  deposit(index: number): { address: string; key: string };
  hot: HotWallet | null;
}

export function createTronKeys(settings: TronSettings): TronKeys {
  let root: HDKey | null = null;
  const cache = new Map<number, { address: string; key: string }>();
  const hotKey = settings.hotWalletKey?.reveal();
  return {
    deposit(index) {
      let found = cache.get(index);
      if (!found) {
        root ??= masterKey(settings.seed);
        const key = depositKey(root, index);
        found = { address: addressOfKey(key), key };
        cache.set(index, found);
      }
      return found;
    },
    hot: hotKey ? { address: addressOfKey(hotKey), key: hotKey } : null,
  };
}

export interface TronProvider extends PaymentProvider {
  readonly name: 'tron';
  readonly node: TronNode;
  readonly keys: TronKeys;
  readonly settings: TronSettings;
  /** The watcher started by the last {@link PaymentProvider.attach} (tests call its `tick`). */
  watcher(): TronWatcher | null;
}

export function createTronProvider(settings: TronSettings, deps: TronProviderDeps): TronProvider {
  const { db, clock, log } = deps;
  const node = createTronNode(settings);
  const keys = createTronKeys(settings);
  const payouts = createTronPayouts({ db, node, settings, clock, log, hot: keys.hot });
  let current: TronWatcher | null = null;

  function known(code: string) {
    if (code !== TRON_USDT_CODE) throw new Error(`tron: unknown currency ${code}`);
  }

  return {
    name: 'tron',
    sandbox: false,
    // TRON has no nonces: payouts are independent transactions (one hot wallet, one node).
    maxPayoutConcurrency: 8,
    node,
    keys,
    settings,
    watcher: () => current,

    async listCurrencies(): Promise<ProviderCurrency[]> {
      return [
        {
          code: TRON_USDT_CODE,
          symbol: 'USDT',
          name: 'Tether USD (TRC-20)',
          network: 'TRX',
          logoUrl: `${CURRENCY_LOGO_PATH}usdt.svg`,
          walletRegex: TRON_WALLET_REGEX,
          extraIdExists: false,
          extraIdRegex: null,
          payoutMinUsd: settings.token.payoutMinUsd,
          payout: keys.hot !== null,
        },
      ];
    },

    async priceUsd(code) {
      known(code);
      return '1';
    },

    async minDeposit(code) {
      known(code);
      return settings.token.minDeposit;
    },

    /** A fresh HD address for the bill (the same one if asked again for the same bill). */
    async createDeposit({ billId, code, expiresAt }) {
      known(code);
      // On a fresh database the watcher starts at the solidified head when the first bill is made.
      await ensureScanState(db, node, settings, new Date(clock.now()));
      const [existing] = await db.select().from(tronDepositAddresses).where(eq(tronDepositAddresses.billId, billId));
      if (existing) return { address: existing.address, extraId: null, providerRef: tronDepositPath(existing.hdIndex) };
      const next = (await db.execute(sql`select nextval('tron_address_index_seq')::text as i`)) as unknown as { rows: { i: string }[] };
      const index = Number(next.rows[0]!.i);
      const { address } = keys.deposit(index);
      await db.insert(tronDepositAddresses).values({
        hdIndex: index,
        address,
        billId,
        code,
        createdAt: new Date(clock.now()),
        expiresAt: new Date(expiresAt),
      });
      return { address, extraId: null, providerRef: tronDepositPath(index) };
    },

    estimatePayoutFee: async ({ code }) => {
      known(code);
      return payouts.estimateFee();
    },
    sendPayout: (request) => payouts.send(request),
    payoutStatus: (payoutId) => payouts.status(payoutId),

    /** The token's `balanceOf` at each address (a read per address). */
    async reserveBalances(addresses) {
      return Promise.all(
        addresses.map(async (a) => {
          if (a.currency !== TRON_USDT_CODE || a.network.toUpperCase() !== 'TRX') return { error: `no ${a.currency} token on ${a.network} in the tron rail` };
          if (!isTronAddress(a.address)) return { error: `not a TRON address: ${a.address}` };
          try {
            return { balance: formatUnits(await node.tokenBalance(settings.token.address, a.address), settings.token.decimals) };
          } catch (err) {
            return { error: `tron: ${err instanceof Error ? err.message : String(err)}` };
          }
        }),
      );
    },

    attach(hooks) {
      const watcher = createTronWatcher({
        db,
        node,
        settings,
        clock,
        log,
        lock: createAdvisoryLock(deps.databaseUrl, TRON_WATCHER_LOCK_KEY),
        credit: hooks.credit,
      });
      current = watcher;
      return { workers: [watcher], close: () => watcher.close() };
    },
  };
}
