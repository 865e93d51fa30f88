/**
 * What the `ton` provider asks of the network, as one small interface ({@link TonApi}), so that the
 * rail runs the same against toncenter in production ({@link createToncenterApi}, @ton/ton's
 * TonClient over the v2 JSON-RPC API, with timeouts) and against the offline @ton/sandbox emulator
 * in tests (apps/server/src/test/ton/chain.ts), with faults injected between the two.
 *
 * Every method throws on a transport failure (timeout, 429, 5xx, dropped connection): the caller
 * decides nothing on a throw and tries again later. Only answers are evidence.
 */
import { Address, Cell, type TupleItem, type TupleReader, type Transaction } from '@ton/core';
import { TonClient } from '@ton/ton';
import type { TonSettings } from './config';

/** An account's state as one answer: its data and the chain time it is from belong together. */
export interface TonAccountState {
  state: 'active' | 'uninit' | 'frozen';
  /** Nanotons. */
  balance: bigint;
  data: Cell | null;
  /** The account's newest transaction, or null when it has none. */
  lastTransaction: { lt: bigint; hash: Buffer } | null;
  /** Chain time of the state (unix seconds): every block up to it is in the answer. */
  time: number;
}

export interface TonApi {
  getAccountState(address: Address): Promise<TonAccountState>;
  /**
   * Transactions of `address`, newest first, at most `limit`: from the newest, or from the
   * transaction (`lt`, `hash`) itself (included) backwards. An answer may be shorter than `limit`
   * although older transactions exist: callers follow `prevTransactionLt` themselves.
   */
  getTransactions(address: Address, opts: { limit: number; lt?: bigint; hash?: Buffer }): Promise<Transaction[]>;
  /**
   * The transaction of `destination` that processed the message `source` created at `createdLt`,
   * or null when the API cannot find it (yet): not found is never proof of anything.
   */
  findResultTransaction(source: Address, destination: Address, createdLt: bigint): Promise<Transaction | null>;
  /** Runs a get method on the newest state. @throws when it fails (exit code != 0) or the call fails */
  runGetMethod(address: Address, method: string, args: TupleItem[]): Promise<TupleReader>;
  /** Hands a serialized external message to the network. An answer says it was accepted for relay, not that it will land. */
  sendBoc(boc: Buffer): Promise<void>;
}

/** Words of an API error that mean "no such transaction (yet)" for a lookup. */
const NOT_FOUND = /cannot locate|not found|lt not in db|no transaction/i;

/** A short, single-line reason without the endpoint or the API key (for logs and bills). */
export function tonReason(err: unknown): string {
  const e = err as { response?: { status?: number; data?: unknown }; message?: string };
  if (e?.response?.status) {
    const data = typeof e.response.data === 'object' ? JSON.stringify(e.response.data) : String(e.response.data ?? '');
    return `HTTP ${e.response.status} ${data}`.split('\n')[0]!.slice(0, 200);
  }
  return String(e?.message ?? err)
    .split('\n')[0]!
    .replace(/https?:\/\/\S+/g, '<api>')
    .slice(0, 200);
}

/**
 * The production {@link TonApi}: toncenter's v2 API (`TON_API_URL`, `TON_API_KEY` as `X-API-Key`)
 * through @ton/ton's TonClient, each call limited to `TON_API_TIMEOUT_MS`. Errors are rethrown as
 * one-line messages without the URL or the key.
 */
export function createToncenterApi(settings: Pick<TonSettings, 'apiUrl' | 'apiKey' | 'apiTimeoutMs'>): TonApi {
  const client = new TonClient({
    endpoint: settings.apiUrl,
    timeout: settings.apiTimeoutMs,
    ...(settings.apiKey ? { apiKey: settings.apiKey.reveal() } : {}),
  });
  async function plain<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new Error(`ton: ${tonReason(err)}`);
    }
  }
  return {
    getAccountState: (address) =>
      plain(async () => {
        const s = await client.getContractState(address);
        return {
          state: s.state === 'active' ? 'active' : s.state === 'frozen' ? 'frozen' : 'uninit',
          balance: s.balance,
          data: s.data ? Cell.fromBoc(s.data)[0]! : null,
          lastTransaction: s.lastTransaction
            ? { lt: BigInt(s.lastTransaction.lt), hash: Buffer.from(s.lastTransaction.hash, 'base64') }
            : null,
          time: s.timestampt,
        };
      }),
    getTransactions: (address, opts) =>
      plain(() =>
        client.getTransactions(address, {
          limit: opts.limit,
          ...(opts.lt !== undefined && opts.hash ? { lt: opts.lt.toString(), hash: opts.hash.toString('base64'), inclusive: true } : {}),
          archival: true,
        }),
      ),
    async findResultTransaction(source, destination, createdLt) {
      try {
        return await client.tryLocateResultTx(source, destination, createdLt.toString());
      } catch (err) {
        if (NOT_FOUND.test(tonReason(err))) return null;
        throw new Error(`ton: ${tonReason(err)}`);
      }
    },
    runGetMethod: (address, method, args) => plain(async () => (await client.runMethod(address, method, args)).stack),
    sendBoc: (boc) => plain(() => client.sendFile(boc)),
  };
}
