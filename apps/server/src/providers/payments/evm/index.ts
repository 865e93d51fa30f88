/**
 * The `evm` payment provider (product §11, §14, §15; docs/payments.md "Running Coffer on real chains"):
 * self-custodial USDT/USDC on any EVM chain, with no third party.
 *
 * - Currencies: one per configured token (`usdterc20`, `usdtbsc`...), EVM address pattern, no memo;
 *   cash-out in USDT tokens when a hot wallet key is configured.
 * - Deposits: each bill gets the address m/44'/60'/0'/0/i of the HD seed, with i from a database
 *   sequence (never reused); the watcher ({@link createEvmWatcher}) credits Transfer logs to it.
 * - Payouts: ERC-20 transfers from the hot wallet (./payouts.ts), stored signed before broadcast.
 * - Fees: gas price x the transfer gas limit, in USD at the network's configured native price.
 */
import { eq, sql } from 'drizzle-orm';
import { erc20Abi, formatUnits, getAddress } from 'viem';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import { evmDepositAddresses, evmScanState } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { CURRENCY_LOGO_PATH } from '../sandbox';
import type { PaymentProvider, ProviderCurrency } from '../types';
import { createEvmChains, depositPath, shortReason, type EvmChains } from './chain';
import type { EvmSettings } from './config';
import { createAdvisoryLock } from './lock';
import { createEvmPayouts } from './payouts';
import { createEvmWatcher, type EvmWatcher } from './watcher';

/** The address pattern of every EVM chain (what `wallet_regex` says for payouts). */
export const EVM_WALLET_REGEX = '^(0x)[0-9A-Fa-f]{40}$';
/** Advisory lock key of the deposit watcher: one instance scans at a time. */
export const WATCHER_LOCK_KEY = 727_070_009n;

export interface EvmProviderDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The PostgreSQL URL for the watcher's advisory lock (unset on PGlite). */
  databaseUrl: string | undefined;
}

export interface EvmProvider extends PaymentProvider {
  readonly name: 'evm';
  readonly chains: EvmChains;
  /** The watcher started by the last {@link PaymentProvider.attach} (tests call its `tick`). */
  watcher(): EvmWatcher | null;
}

export function createEvmProvider(settings: EvmSettings, deps: EvmProviderDeps): EvmProvider {
  const { db, clock, log } = deps;
  const chains = createEvmChains(settings);
  const payouts = createEvmPayouts({ db, chains, clock, log });
  let current: EvmWatcher | null = null;

  /**
   * Runs a chain call, rethrowing failures as one-line errors: viem's own messages carry the RPC
   * URL, and a provider URL often embeds an API key that must not reach the logs.
   */
  async function plain<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new Error(`evm: ${shortReason(err)}`);
    }
  }

  function token(code: string) {
    const found = chains.byCode(code);
    if (!found) throw new Error(`evm: unknown currency ${code}`);
    return found;
  }

  return {
    name: 'evm',
    sandbox: false,
    // Nonces are chosen under one lock per chain and signer (payouts.ts): sends stay serial.
    maxPayoutConcurrency: 1,
    chains,
    watcher: () => current,

    async listCurrencies(): Promise<ProviderCurrency[]> {
      return chains.networks.flatMap((n) =>
        n.tokens.map((t) => ({
          code: t.code,
          symbol: t.symbol,
          name: t.name,
          network: n.name,
          logoUrl: `${CURRENCY_LOGO_PATH}${t.logo}.svg`,
          walletRegex: EVM_WALLET_REGEX,
          extraIdExists: false,
          extraIdRegex: null,
          payoutMinUsd: t.payoutMinUsd,
          payout: t.payout && chains.hotWallet !== null,
        })),
      );
    },

    async priceUsd(code) {
      return token(code).token.usdPrice;
    },

    async minDeposit(code) {
      return token(code).token.minDeposit;
    },

    /** A fresh HD address for the bill (the same one if asked again for the same bill). */
    async createDeposit({ billId, code, expiresAt }) {
      const { network } = token(code);
      // On a fresh database the watcher starts where the chain stood when the first bill was made.
      const [state] = await db.select().from(evmScanState).where(eq(evmScanState.chainId, network.chainId));
      if (!state) {
        const head = await chains.client(network).getBlockNumber({ cacheTime: 0 });
        const start = network.startBlock !== undefined ? BigInt(network.startBlock) : head;
        await db
          .insert(evmScanState)
          .values({ chainId: network.chainId, lastBlock: start - 1n, updatedAt: new Date(clock.now()) })
          .onConflictDoNothing();
      }
      const [existing] = await db.select().from(evmDepositAddresses).where(eq(evmDepositAddresses.billId, billId));
      if (existing) return { address: chains.depositAccount(existing.hdIndex).address, extraId: null, providerRef: depositPath(existing.hdIndex) };
      // Both drivers (pg and PGlite) answer raw SQL with `{ rows }`.
      const next = (await db.execute(sql`select nextval('evm_address_index_seq')::text as i`)) as unknown as { rows: { i: string }[] };
      const index = Number(next.rows[0]!.i);
      const account = chains.depositAccount(index);
      await db.insert(evmDepositAddresses).values({
        hdIndex: index,
        address: account.address.toLowerCase(),
        billId,
        chainId: network.chainId,
        code,
        createdAt: new Date(clock.now()),
        expiresAt: new Date(expiresAt),
      });
      return { address: account.address, extraId: null, providerRef: depositPath(index) };
    },

    estimatePayoutFee: ({ code }) => plain(() => payouts.estimateFee(code)),
    sendPayout: (request) => plain(() => payouts.send(request)),
    payoutStatus: (payoutId) => plain(() => payouts.status(payoutId)),

    /** The token's `balanceOf` at each address, on the currency's chain (a read per address). */
    async reserveBalances(addresses) {
      return Promise.all(
        addresses.map(async (a) => {
          const found = chains.byCode(a.currency);
          if (!found || found.network.name !== a.network.toUpperCase()) {
            return { error: `no configured ${a.currency} token on ${a.network}` };
          }
          try {
            const raw = await chains.client(found.network).readContract({
              address: found.token.address,
              abi: erc20Abi,
              functionName: 'balanceOf',
              args: [getAddress(a.address)],
            });
            return { balance: formatUnits(raw, found.token.decimals) };
          } catch (err) {
            return { error: `evm: ${shortReason(err)}` };
          }
        }),
      );
    },

    attach(hooks) {
      const watcher = createEvmWatcher({
        db,
        chains,
        clock,
        log,
        lock: createAdvisoryLock(deps.databaseUrl, WATCHER_LOCK_KEY),
        credit: hooks.credit,
        pollMs: settings.pollMs,
        latePaymentHours: settings.latePaymentHours,
        watchDays: settings.watchDays,
      });
      current = watcher;
      return { workers: [watcher], close: () => watcher.close() };
    },
  };
}
