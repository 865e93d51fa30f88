/**
 * The `ton` payment provider (product §11, §14, §15; docs/payments.md "ton — USDT on TON"):
 * self-custodial USDT jettons on TON, with no third party but a TON API (toncenter v2).
 *
 * - Currency: `usdtton` (network `TON`), user-friendly address pattern, payouts with a memo
 *   (the transfer comment: an exchange's deposit needs one, product §5 "only when the currency
 *   needs one"); cash-out when a hot wallet mnemonic is configured.
 * - Deposits (ADR 0055): one deposit wallet for every bill (default the hot wallet); each bill gets
 *   a memo (its short code) that the payer writes as the transfer comment. The watcher
 *   ({@link createTonWatcher}) reads the deposit wallet's USDT jetton wallet (computed from the
 *   master, so a fake jetton never reaches it) and credits transfers by memo.
 * - Payouts (ADR 0056): jetton transfers from the hot wallet (v5r1), batched per external message,
 *   exactly once by the wallet's seqno (./payouts.ts).
 * - Fees: the TON each transfer carries (`TON_JETTON_TRANSFER_TON`) in USD at `TON_USD_PRICE`.
 */
import { createHmac, pbkdf2Sync } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Address } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { WalletContractV5R1 } from '@ton/ton';
import { Big } from '@coffer/contract';
import type { Db } from '../../../db/client';
import { tonDeposits } from '../../../db/schema/index';
import type { Clock } from '../../../lib/clock';
import { createAdvisoryLock } from '../evm/lock';
import { CURRENCY_LOGO_PATH } from '../sandbox';
import type { PaymentProvider, ProviderCurrency } from '../types';
import { createToncenterApi, tonReason, type TonApi } from './api';
import type { Secret, TonSettings } from './config';
import { jettonWalletOf, newMemo } from './jetton';
import { createTonPayouts, type HotWallet, type TonPayouts } from './payouts';
import { createTonWatcher, formatUnits, initScanPosition, type TonWatcher } from './watcher';

/** The rail's currency code and network. */
export const TON_USDT_CODE = 'usdtton';
/** User-friendly TON addresses (bounceable EQ/kQ, non-bounceable UQ/0Q): what `wallet_regex` says for payouts. */
export const TON_WALLET_REGEX = '^(EQ|UQ|kQ|0Q)[0-9A-Za-z_-]{46}$';
/** A payout memo (transfer comment): what exchanges' deposit memos look like. */
export const TON_MEMO_REGEX = '^[0-9A-Za-z_-]{1,64}$';
/** Advisory lock keys: the deposit watcher's and the payouts' (one instance each at a time). */
export const TON_WATCHER_LOCK_KEY = 727_070_055n;
export const TON_PAYOUT_LOCK_KEY = 727_070_056n;

export interface TonProviderDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** The PostgreSQL URL for the advisory locks (unset on PGlite). */
  databaseUrl: string | undefined;
  /** The network; default toncenter per the settings (tests: the sandbox, with faults). */
  api?: TonApi;
}

export interface TonProvider extends PaymentProvider {
  readonly name: 'ton';
  readonly api: TonApi;
  readonly payouts: TonPayouts;
  /** The hot wallet's address, or null without a mnemonic. */
  readonly hotWallet: Address | null;
  /** The deposit wallet (owner address the bills show). */
  readonly depositWallet: Address;
  /** The watcher started by the last {@link PaymentProvider.attach} (tests call its `tick`). */
  watcher(): TonWatcher | null;
}

/**
 * The hot wallet's Ed25519 key pair from its 24 words (no password), computed synchronously as
 * @ton/crypto's `mnemonicToPrivateKey` does (HMAC-SHA512 entropy, PBKDF2-SHA512 100 000 rounds,
 * "TON default seed", first 32 bytes as the seed).
 */
export function hotWalletKeyPair(mnemonic: Secret): { publicKey: Buffer; secretKey: Buffer } {
  const entropy = createHmac('sha512', mnemonic.reveal()).update('').digest();
  const seed = pbkdf2Sync(entropy, 'TON default seed', 100_000, 64, 'sha512');
  return keyPairFromSeed(seed.subarray(0, 32));
}

/** The address form users see: non-bounceable (a wallet's usual form), testnet-only when configured. */
export const friendly = (a: Address, testnet: boolean): string => a.toString({ bounceable: false, urlSafe: true, testOnly: testnet });

/**
 * @param settings validated TON_* variables (config.ts)
 */
export function createTonProvider(settings: TonSettings, deps: TonProviderDeps): TonProvider {
  const { db, clock, log } = deps;
  const api = deps.api ?? settings.api ?? createToncenterApi(settings);
  let hot: HotWallet | null = null;
  if (settings.hotWalletMnemonic) {
    const keys = hotWalletKeyPair(settings.hotWalletMnemonic);
    const contract = WalletContractV5R1.create({
      publicKey: keys.publicKey,
      walletId: { networkGlobalId: settings.testnet ? -3 : -239, context: { workchain: 0, walletVersion: 'v5r1', subwalletNumber: 0 } },
    });
    hot = { contract, secretKey: keys.secretKey };
  }
  const owner = settings.depositAddress ?? hot!.contract.address;
  let depositJetton: Address | null = null;
  const depositJettonWallet = async () => (depositJetton ??= await jettonWalletOf(api, settings.usdtMaster, owner));
  const payoutLock = createAdvisoryLock(deps.databaseUrl, TON_PAYOUT_LOCK_KEY);
  const payouts = createTonPayouts({ db, api, clock, log, settings, code: TON_USDT_CODE, hot, lock: payoutLock });
  let current: TonWatcher | null = null;

  function check(code: string): void {
    if (code !== TON_USDT_CODE) throw new Error(`ton: unknown currency ${code}`);
  }

  return {
    name: 'ton',
    sandbox: false,
    // Sends are serialised per wallet inside the rail (one pass at a time); lanes only wait on each other.
    maxPayoutConcurrency: 4,
    api,
    payouts,
    hotWallet: hot?.contract.address ?? null,
    depositWallet: owner,
    watcher: () => current,

    async listCurrencies(): Promise<ProviderCurrency[]> {
      return [
        {
          code: TON_USDT_CODE,
          symbol: 'USDT',
          name: 'Tether USD (TON)',
          network: 'TON',
          logoUrl: `${CURRENCY_LOGO_PATH}usdt.svg`,
          walletRegex: TON_WALLET_REGEX,
          extraIdExists: true,
          extraIdRegex: TON_MEMO_REGEX,
          payoutMinUsd: settings.payoutMinUsd,
          payout: hot !== null,
        },
      ];
    },

    async priceUsd(code) {
      check(code);
      return '1';
    },

    async minDeposit(code) {
      check(code);
      return settings.minDeposit;
    },

    /**
     * The deposit wallet and a fresh memo for the bill (the same memo if asked again for the same
     * bill). On a fresh database the watcher's position is set first, where the jetton wallet stands.
     * @throws when the API cannot be read (the bill is not created)
     */
    async createDeposit({ billId, code, expiresAt }) {
      check(code);
      const address = friendly(owner, settings.testnet);
      const [existing] = await db.select().from(tonDeposits).where(eq(tonDeposits.billId, billId));
      if (existing) return { address, extraId: existing.memo, providerRef: `ton-memo:${existing.memo}` };
      const jw = await depositJettonWallet();
      try {
        const state = await api.getAccountState(jw);
        await initScanPosition(db, jw.toRawString(), state.lastTransaction, clock.now());
      } catch (err) {
        throw new Error(`ton: ${tonReason(err)}`);
      }
      for (let attempt = 0; attempt < 5; attempt++) {
        const memo = newMemo();
        const [row] = await db
          .insert(tonDeposits)
          .values({
            billId,
            memo,
            code,
            depositAddress: owner.toRawString(),
            createdAt: new Date(clock.now()),
            expiresAt: new Date(expiresAt),
          })
          .onConflictDoNothing()
          .returning();
        if (row) return { address, extraId: row.memo, providerRef: `ton-memo:${row.memo}` };
        const [again] = await db.select().from(tonDeposits).where(eq(tonDeposits.billId, billId));
        if (again) return { address, extraId: again.memo, providerRef: `ton-memo:${again.memo}` };
      }
      throw new Error('ton: could not find a free memo');
    },

    /**
     * The TON a jetton transfer carries (`TON_JETTON_TRANSFER_TON`: gas and the forwarded nanotons
     * come out of it, the unused rest returns to the hot wallet), in USD at `TON_USD_PRICE`
     * (2 decimals, rounded up) and in USDT (8 decimals).
     */
    async estimatePayoutFee({ code }) {
      check(code);
      const usd = new Big(settings.jettonTransferTon).times(settings.tonUsdPrice);
      return { fee: usd.round(8, Big.roundUp).toFixed(8), feeUsd: usd.round(2, Big.roundUp).toFixed(2) };
    },

    sendPayout: (request) => payouts.send(request),
    payoutStatus: (payoutId) => payouts.status(payoutId),

    /** USDT held by each owner address: its jetton wallet's `get_wallet_data` balance (none yet: 0). */
    async reserveBalances(addresses) {
      return Promise.all(
        addresses.map(async (a) => {
          if (a.network.toUpperCase() !== 'TON' || a.currency !== TON_USDT_CODE) return { error: `no ${a.currency} on ${a.network} in the ton rail` };
          let ownerAddress: Address;
          try {
            ownerAddress = Address.parse(a.address);
          } catch {
            return { error: `not a TON address: ${a.address}` };
          }
          try {
            const jw = await jettonWalletOf(api, settings.usdtMaster, ownerAddress);
            const state = await api.getAccountState(jw);
            if (state.state !== 'active') return { balance: '0' };
            const balance = (await api.runGetMethod(jw, 'get_wallet_data', [])).readBigNumber();
            return { balance: formatUnits(balance, settings.decimals) };
          } catch (err) {
            return { error: `ton: ${tonReason(err)}` };
          }
        }),
      );
    },

    attach(hooks) {
      const watcher = createTonWatcher({
        db,
        api,
        clock,
        log,
        lock: createAdvisoryLock(deps.databaseUrl, TON_WATCHER_LOCK_KEY),
        settings,
        code: TON_USDT_CODE,
        owner,
        depositJettonWallet,
        credit: hooks.credit,
      });
      current = watcher;
      return { workers: [watcher], close: async () => Promise.all([watcher.close(), payoutLock.close()]).then(() => undefined) };
    },
  };
}

