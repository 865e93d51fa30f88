/**
 * An offline TON for tests: the @ton/sandbox emulator with a USDT jetton minter (the standard
 * TEP-74 minter and wallet code that @ton-community/assets-sdk ships compiled), and a
 * {@link TonApi} over it — with faults injected between the rail and the chain
 * ({@link TestTon.setPlan}), as a toncenter API and the network would misbehave:
 *
 * - `429`, `503`, `timeout`: the call fails and does nothing;
 * - `lost-answer`: the call acts (a broadcast is relayed), then fails as if the answer was lost;
 * - `duplicate`: a broadcast is relayed twice;
 * - `dropped`: a broadcast is answered "ok" but never reaches a validator;
 * - `lag`: reads answer as of `blocks` blocks ago (older state and time, newest transactions missing);
 * - `repeat`: a transaction list answers every entry twice (repeated events).
 *
 * Blocks are made on demand ({@link TestTon.mine}): externals broadcast since the last block run
 * then, at the chain time of the test's clock (`now` in seconds). Transactions are recorded per
 * account, so the API can page through them like toncenter's v2 `getTransactions`.
 */
import { Blockchain, internal as sandboxInternal } from '@ton/sandbox';
import {
  Address,
  beginCell,
  Cell,
  contractAddress,
  loadMessage,
  toNano,
  type Message,
  type Transaction,
  type TupleItem,
  TupleReader,
} from '@ton/core';
import { jettonMinterCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-minter.js';
import { jettonWalletCode } from '@ton-community/assets-sdk/dist/jetton/contracts/build/jetton-wallet.js';
import type { TonAccountState, TonApi } from '../../providers/payments/ton/api';
import { commentCell, OP_INTERNAL_TRANSFER, OP_TRANSFER } from '../../providers/payments/ton/jetton';

export type TonFault =
  | { kind: '429' }
  | { kind: '503' }
  | { kind: 'timeout' }
  | { kind: 'lost-answer' }
  | { kind: 'duplicate' }
  | { kind: 'dropped' }
  | { kind: 'lag'; blocks: number }
  | { kind: 'repeat' };

export type TonMethod = keyof TonApi;
/** Decides the fault of one call (null: answer truly). */
export type TonFaultPlan = (method: TonMethod) => TonFault | null;

/** A jetton minter on the test chain. */
export interface TestJetton {
  master: Address;
  /** Mints `amount` base units to `owner`'s jetton wallet. */
  mint(owner: Address, amount: bigint): Promise<void>;
  walletOf(owner: Address): Promise<Address>;
  balanceOf(owner: Address): Promise<bigint>;
}

export interface TestTon {
  blockchain: Blockchain;
  /** The rail's view of the chain (faults included). */
  api: TonApi;
  usdt: TestJetton;
  /** Deploys another jetton (e.g. a fake "USDT"). */
  deployJetton(): Promise<TestJetton>;
  /** Sends TON from nowhere (a faucet) to `to`. */
  fund(to: Address, nanotons: bigint): Promise<void>;
  /**
   * `from` (any address; its jetton wallet must hold the jettons) sends `amount` of `jetton` to
   * the owner `to`, with a comment, `forwardTon` nanotons forwarded (default 1).
   */
  payJetton(jetton: TestJetton, from: Address, to: Address, amount: bigint, comment: string | null, forwardTon?: bigint): Promise<Transaction[]>;
  /** Sends an arbitrary internal message from `from` (e.g. a forged internal_transfer). */
  sendInternal(from: Address, to: Address, body: Cell, value?: bigint): Promise<Transaction[]>;
  /** Runs the externals broadcast so far in a new block at the chain time `nowS`. */
  mine(nowS: number): Promise<void>;
  /** Broadcast externals waiting for the next block. */
  mempool(): number;
  setPlan(plan: TonFaultPlan | null): void;
  injected: Record<string, number>;
}

const hex = (a: Address) => a.toRawString();

export async function startTestTon(startS: number): Promise<TestTon> {
  const blockchain = await Blockchain.create();
  blockchain.now = startS;
  const admin = new Address(0, Buffer.alloc(32, 7));
  /** Transactions per account, oldest first. */
  const history = new Map<string, Transaction[]>();
  /** Per block: the chain time and, per account, its newest lt then. */
  const blocks: { time: number; lts: Map<string, bigint> }[] = [];
  /** Account states per block (for lagging reads), captured lazily for the accounts asked about. */
  const snapshots: Map<string, TonAccountState>[] = [];
  let pending: Cell[] = [];
  let plan: TonFaultPlan | null = null;
  const injected: Record<string, number> = {};
  const seen = new Set<string>();

  function record(txs: Transaction[]): void {
    for (const tx of txs) {
      const key = `${tx.lt}:${tx.hash().toString('hex')}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const addr = new Address(0, Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex'));
      const list = history.get(hex(addr)) ?? [];
      list.push(tx);
      history.set(hex(addr), list);
    }
  }

  async function send(message: Message): Promise<Transaction[]> {
    const res = await blockchain.sendMessage(message);
    record(res.transactions);
    return res.transactions;
  }

  async function stateNow(address: Address): Promise<TonAccountState> {
    const c = await blockchain.getContract(address);
    const acc = c.accountState;
    const list = history.get(hex(address)) ?? [];
    const last = list[list.length - 1];
    return {
      state: acc?.type === 'active' ? 'active' : acc?.type === 'frozen' ? 'frozen' : 'uninit',
      balance: c.balance,
      data: acc?.type === 'active' ? (acc.state.data ?? null) : null,
      lastTransaction: last ? { lt: last.lt, hash: last.hash() } : null,
      time: blockchain.now ?? startS,
    };
  }

  async function deployJetton(): Promise<TestJetton> {
    const walletCode = Cell.fromBase64(jettonWalletCode.codeBoc);
    const content = beginCell().storeUint(1, 8).storeStringTail(`usdt-${Math.random()}`).endCell();
    const init = {
      code: Cell.fromBase64(jettonMinterCode.codeBoc),
      data: beginCell().storeCoins(0).storeAddress(admin).storeRef(content).storeRef(walletCode).endCell(),
    };
    const master = contractAddress(0, init);
    await send(sandboxInternal({ from: admin, to: master, value: toNano('1'), bounce: false, stateInit: init }));
    const walletOf = async (owner: Address) =>
      (await blockchain.runGetMethod(master, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }])).stackReader.readAddress();
    return {
      master,
      walletOf,
      async mint(owner, amount) {
        const transfer = beginCell()
          .storeUint(OP_INTERNAL_TRANSFER, 32)
          .storeUint(0, 64)
          .storeCoins(amount)
          .storeAddress(master)
          .storeAddress(admin)
          .storeCoins(0)
          .storeBit(false)
          .endCell();
        const body = beginCell().storeUint(21, 32).storeUint(0, 64).storeAddress(owner).storeCoins(toNano('0.05')).storeRef(transfer).endCell();
        await send(sandboxInternal({ from: admin, to: master, value: toNano('0.2'), body }));
      },
      async balanceOf(owner) {
        const w = await walletOf(owner);
        const c = await blockchain.getContract(w);
        if (c.accountState?.type !== 'active') return 0n;
        return (await blockchain.runGetMethod(w, 'get_wallet_data')).stackReader.readBigNumber();
      },
    };
  }

  const usdt = await deployJetton();

  function fault(method: TonMethod): TonFault | null {
    const f = plan?.(method) ?? null;
    if (f) injected[f.kind] = (injected[f.kind] ?? 0) + 1;
    return f;
  }
  const fail = (f: TonFault) => new Error(f.kind === 'timeout' ? 'timeout of 15000ms exceeded' : `Request failed with status code ${f.kind}`);

  /** The newest lt of `account` as of `lag` blocks ago (null: all). */
  function horizon(account: string, lag: number): bigint | null {
    if (lag <= 0 || blocks.length === 0) return null;
    const b = blocks[Math.max(0, blocks.length - 1 - lag)]!;
    return b.lts.get(account) ?? -1n;
  }

  const api: TonApi = {
    async getAccountState(address) {
      const f = fault('getAccountState');
      if (f && ['429', '503', 'timeout'].includes(f.kind)) throw fail(f);
      if (f?.kind === 'lag' && snapshots.length) {
        const snap = snapshots[Math.max(0, snapshots.length - 1 - f.blocks)]!;
        const s = snap.get(hex(address));
        if (s) return s;
      }
      const s = await stateNow(address);
      if (f?.kind === 'lost-answer') throw fail(f);
      return s;
    },
    async getTransactions(address, opts) {
      const f = fault('getTransactions');
      if (f && ['429', '503', 'timeout', 'lost-answer'].includes(f.kind)) throw fail(f);
      const list = [...(history.get(hex(address)) ?? [])].reverse();
      const top = f?.kind === 'lag' ? horizon(hex(address), f.blocks) : null;
      let start = 0;
      if (opts.lt !== undefined && opts.hash) {
        start = list.findIndex((t) => t.lt === opts.lt && t.hash().equals(opts.hash!));
        if (start < 0) return [];
      }
      let out = list.slice(start, start + opts.limit);
      if (top !== null) out = out.filter((t) => t.lt <= top);
      if (f?.kind === 'repeat') out = out.flatMap((t) => [t, t]).slice(0, opts.limit);
      return out;
    },
    async findResultTransaction(source, destination, createdLt) {
      const f = fault('findResultTransaction');
      if (f && ['429', '503', 'timeout', 'lost-answer'].includes(f.kind)) throw fail(f);
      const top = f?.kind === 'lag' ? horizon(hex(destination), f.blocks) : null;
      const list = history.get(hex(destination)) ?? [];
      const tx = list.find(
        (t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.src.equals(source) && t.inMessage.info.createdLt === createdLt,
      );
      if (!tx || (top !== null && tx.lt > top)) return null;
      return tx;
    },
    async runGetMethod(address, method, args: TupleItem[]) {
      const f = fault('runGetMethod');
      if (f && ['429', '503', 'timeout'].includes(f.kind)) throw fail(f);
      const res = await blockchain.runGetMethod(address, method, args);
      if (res.exitCode !== 0 && res.exitCode !== 1) throw new Error(`get method ${method} exited with ${res.exitCode}`);
      if (f?.kind === 'lost-answer') throw fail(f);
      return new TupleReader(res.stack);
    },
    async sendBoc(boc) {
      const f = fault('sendBoc');
      if (f && ['429', '503', 'timeout'].includes(f.kind)) throw fail(f);
      const cell = Cell.fromBoc(boc)[0]!;
      if (f?.kind !== 'dropped') pending.push(cell);
      if (f?.kind === 'duplicate') pending.push(cell);
      if (f?.kind === 'lost-answer') throw fail(f);
    },
  };

  return {
    blockchain,
    api,
    usdt,
    deployJetton,
    async fund(to, nanotons) {
      await send(sandboxInternal({ from: admin, to, value: nanotons, bounce: false }));
    },
    async payJetton(jetton, from, to, amount, comment, forwardTon = 1n) {
      const body = beginCell()
        .storeUint(OP_TRANSFER, 32)
        .storeUint(Date.now(), 64)
        .storeCoins(amount)
        .storeAddress(to)
        .storeAddress(from)
        .storeBit(false)
        .storeCoins(forwardTon);
      if (comment !== null) body.storeBit(true).storeRef(commentCell(comment));
      else body.storeBit(false);
      return send(sandboxInternal({ from, to: await jetton.walletOf(from), value: toNano('0.1'), body: body.endCell() }));
    },
    sendInternal: (from, to, body, value = toNano('0.1')) => send(sandboxInternal({ from, to, value, body })),
    async mine(nowS) {
      // The state before this block, for answers that lag behind.
      const snap = new Map<string, TonAccountState>();
      for (const key of history.keys()) snap.set(key, await stateNow(Address.parseRaw(key)));
      snapshots.push(snap);
      blockchain.now = nowS;
      const batch = pending;
      pending = [];
      for (const cell of batch) {
        try {
          await send(loadMessage(cell.beginParse()));
        } catch {
          // Not accepted (seqno used, expired, bad signature): the message is dropped, as validators would.
        }
      }
      const lts = new Map<string, bigint>();
      for (const [key, list] of history) lts.set(key, list[list.length - 1]!.lt);
      blocks.push({ time: nowS, lts });
    },
    mempool: () => pending.length,
    setPlan(next) {
      plan = next;
    },
    injected,
  };
}

/**
 * A small seeded pseudo-random generator (mulberry32) for reproducible fault schedules.
 * @returns a function giving floats in [0, 1)
 */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
