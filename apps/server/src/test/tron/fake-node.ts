/**
 * An in-memory fake of the TRON node's HTTP API as Coffer's `tron` rail uses it (docs/payments.md,
 * "tron — USDT on TRON"), for tests: TRON has no node that runs offline here. It follows TRON's
 * published HTTP API (developers.tron.network, java-tron's servlets) for the calls Coffer makes:
 *
 * - `/wallet/getnowblock`, `/walletsolidity/getnowblock`, `/wallet|walletsolidity/getblock`
 *   (`id_or_num`, `detail`), `/walletsolidity/getblockbylimitnext` (`startNum`, `endNum` exclusive);
 * - `/wallet|walletsolidity/gettransactioninfobyblocknum` (`num`) and `.../gettransactioninfobyid`
 *   (`value`): `{}` for an unknown transaction; logs carry 20-byte addresses, topics without 0x;
 * - `/wallet/getaccount` (`{}` for an account that does not exist), `/wallet/getaccountresource`,
 *   `/wallet/getchainparameters` (`getEnergyFee`, `getTransactionFee`, account creation fees);
 * - `/wallet/triggerconstantcontract`: `balanceOf` and `transfer` of the one TRC-20 contract, with
 *   `energy_used` (a transfer to an address holding none costs {@link ENERGY_NEW_HOLDER}, else
 *   {@link ENERGY_HOLDER}); a transfer beyond the balance answers `transaction.ret: FAILED`;
 * - `/wallet/broadcasttransaction`: checks the txid (SHA-256 of the raw data's protobuf, rebuilt
 *   from `raw_data` as the node does), the signature (recovering the owner), expiration and TaPoS,
 *   and answers `DUP_TRANSACTION_ERROR`, `SIGERROR`, `TRANSACTION_EXPIRATION_ERROR`, `TAPOS_ERROR`,
 *   `CONTRACT_VALIDATE_ERROR` like java-tron (messages hex-encoded);
 * - Stake 2.0 (developers.tron.network "Stake 2.0", the HTTP API's `freezebalancev2`,
 *   `delegateresource`, `undelegateresource`): broadcast `FreezeBalanceV2Contract`,
 *   `DelegateResourceContract` and `UnDelegateResourceContract` transactions (Coffer builds them
 *   locally, as it does transfers), `/wallet/getcandelegatedmaxsize` (`type` 1: energy) and
 *   `/wallet/getdelegatedresourcev2` (`fromAddress`, `toAddress`); `getaccountresource` answers
 *   `EnergyLimit` from the account's own stake minus what it delegates plus what it receives, with
 *   `TotalEnergyLimit` / `TotalEnergyWeight` ({@link TOTAL_ENERGY_LIMIT}, {@link TOTAL_ENERGY_WEIGHT}).
 *   Undelegating moves the receiver's energy usage back to the owner in proportion, as java-tron's
 *   UnDelegateResourceActuator does. Used energy does not recover with time here (TRON recovers it
 *   over 24 hours: 28,800 blocks, more than any test makes).
 *
 * Blocks are made on demand ({@link FakeTronNode.produce}), 3 s of chain time apart; the solidified
 * head is `solidLag` blocks below the head. A block applies its transactions: TRX transfers (account
 * creation fee for a new account), TRC-20 transfers with energy accounting (staked energy first, then
 * TRX burned at the energy price up to the fee_limit: OUT_OF_ENERGY when it does not suffice, no
 * transfer, the fee burned), bandwidth (600 free bytes per account, then TRX). A transaction whose
 * expiration is not after its parent block's time, or whose reference block is not in the chain, is
 * dropped. {@link FakeTronNode.reorg} replaces unsolidified blocks (their transactions return to the
 * pool, some may be dropped). A fault plan answers chosen requests like a bad node or network:
 * `503`, `429`, `lost` (acts, then drops the connection), `duplicate` (acts twice; lists repeat
 * their entries), `missing` (a lagging node: lists cut short, lookups and blocks not found).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import utils from 'tronweb/utils';
import { fromHex, toHex41 } from '../../providers/payments/tron/address';
import { TRANSFER_TOPIC } from '../../providers/payments/tron/node';

export const ENERGY_HOLDER = 31_895;
export const ENERGY_NEW_HOLDER = 64_895;
const BLOCK_MS = 3_000;
const FREE_NET = 600n;
const TRIGGER_BYTES = 345n;
const TRANSFER_BYTES = 268n;
/** Mainnet's `TotalEnergyLimit`: energy a day shared among everything staked for energy. */
export const TOTAL_ENERGY_LIMIT = 180_000_000_000n;
/** `TotalEnergyWeight`: whole TRX staked for energy network-wide (about 11.25 energy a day per TRX here). */
export const TOTAL_ENERGY_WEIGHT = 16_000_000_000n;
/** Energy of `sun` staked for energy (Stake 2.0), rounded down. */
export const energyOfStake = (sun: bigint): bigint => (sun * TOTAL_ENERGY_LIMIT) / (TOTAL_ENERGY_WEIGHT * 1_000_000n);

export type FakeFault = { kind: '503' } | { kind: '429' } | { kind: 'lost' } | { kind: 'duplicate' } | { kind: 'missing' };
/** Decides the fault of one request by its path (`/wallet/getnowblock`...) and body; null: answer truly. */
export type FakePlan = (path: string, body: Record<string, unknown>) => FakeFault | null;

interface State {
  trx: Map<string, bigint>;
  token: Map<string, bigint>;
  exists: Set<string>;
  netUsed: Map<string, bigint>;
  energyUsed: Map<string, bigint>;
  /** Sun staked for energy (Stake 2.0), by owner. */
  frozen: Map<string, bigint>;
  /** Sun of stake delegated for energy, by `from>to`. */
  delegated: Map<string, bigint>;
}

type Op =
  | { type: 'trx'; from: string; to: string; amount: bigint }
  | { type: 'token'; from: string; to: string; amount: bigint; feeLimit: bigint; contract: string }
  | { type: 'freeze'; from: string; amount: bigint }
  | { type: 'delegate' | 'undelegate'; from: string; to: string; amount: bigint };

interface FakeTx {
  txID: string;
  op: Op;
  /** The JSON the node stores (signed transactions as broadcast; synthetic ones minimal). */
  json: Record<string, unknown>;
  expiration: number;
  ref: { bytes: string; hash: string } | null;
}

interface Included {
  tx: FakeTx;
  info: Record<string, unknown>;
}

interface Block {
  number: number;
  hash: string;
  parentHash: string;
  timestamp: number;
  txs: Included[];
  /** The state after this block; forgotten for solidified blocks (no reorg reaches them). */
  state: State | undefined;
}

const clone = (s: State): State => ({
  trx: new Map(s.trx),
  token: new Map(s.token),
  exists: new Set(s.exists),
  netUsed: new Map(s.netUsed),
  energyUsed: new Map(s.energyUsed),
  frozen: new Map(s.frozen),
  delegated: new Map(s.delegated),
});
const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');
const word = (v: bigint) => v.toString(16).padStart(64, '0');
/** Hex41 (lower case) of base58 or hex input. */
const h41 = (a: string) => (a.startsWith('T') ? toHex41(a) : a.toLowerCase().replace(/^0x/, '').padStart(42, '41'));

export interface FakeTronNode {
  url: string;
  /** The TRC-20 contract (base58). */
  contract: string;
  /** Blocks between the head and the solidified head. */
  solidLag: number;
  /** Sun per energy unit (`getEnergyFee`). */
  energySun: bigint;
  /** Multiplies the energy a transfer really costs when mined (estimates do not see it): OUT_OF_ENERGY tests. */
  energyFactor: number;
  setPlan(plan: FakePlan | null): void;
  injected: Record<string, number>;
  seen: Record<string, number>;
  head(): number;
  solidHead(): number;
  /** Makes `n` blocks from the pool. */
  produce(n?: number): void;
  /** Replaces the newest `depth` blocks (all unsolidified) by `depth + 1` new ones; `drop`ped txids leave the pool. */
  reorg(depth: number, drop?: (txid: string) => boolean): void;
  /** TRX (sun) to `to` from nowhere (a faucet), in the next block. */
  fundTrx(to: string, sun: bigint): string;
  /** Tokens minted to `to` at once. */
  mint(to: string, amount: bigint): void;
  /** A token transfer from `from` (an external payer, funded as needed) into the pool. @returns its txid */
  payToken(from: string, to: string, amount: bigint): string;
  /** Staked energy of `address` (EnergyLimit), outside Stake 2.0's accounting. */
  stake(address: string, energy: bigint): void;
  /** Sun of TRX `address` has staked for energy (Stake 2.0), at the head. */
  frozenEnergySun(address: string): bigint;
  /** Sun of stake `from` delegates for energy to `to`, at the head. */
  delegatedEnergySun(from: string, to: string): bigint;
  /** Energy `address` has used and not recovered, at the head. */
  energyUsed(address: string): bigint;
  /** Stake 2.0 transactions in the chain, oldest first (txid, type, owner, receiver, sun). */
  stakeOps(): { txid: string; type: 'freeze' | 'delegate' | 'undelegate'; from: string; to: string | null; amount: bigint }[];
  tokenBalance(address: string): bigint;
  trxBalance(address: string): bigint;
  /** Is `txid` in the chain? */
  included(txid: string): boolean;
  /** Transactions waiting in the pool. */
  pool(): string[];
  close(): Promise<void>;
}

export async function startFakeTronNode(options: { solidLag?: number; startTime?: number; contract?: string } = {}): Promise<FakeTronNode> {
  const contract = options.contract ?? 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const contract41 = toHex41(contract);
  const staked = new Map<string, bigint>();
  const genesisState: State = { trx: new Map(), token: new Map(), exists: new Set(), netUsed: new Map(), energyUsed: new Map(), frozen: new Map(), delegated: new Map() };
  const blocks: Block[] = [];
  let salt = 0;
  const makeHash = (number: number, parent: string) =>
    number.toString(16).padStart(16, '0') + createHash('sha256').update(`${number}:${parent}:${salt++}:${randomBytes(4).toString('hex')}`).digest('hex').slice(16);
  const genesisHash = makeHash(0, '');
  blocks.push({ number: 0, hash: genesisHash, parentHash: '0'.repeat(64), timestamp: options.startTime ?? Date.now(), txs: [], state: genesisState });
  let pending: FakeTx[] = [];
  /** txid -> the number of the block holding it. */
  const where = new Map<string, number>();
  const expired = new Set<string>();
  let plan: FakePlan | null = null;
  const injected: Record<string, number> = {};
  const seen: Record<string, number> = {};

  const tip = () => blocks[blocks.length - 1]!;
  const self: FakeTronNode = {
    url: '',
    contract,
    solidLag: options.solidLag ?? 19,
    energySun: 100n,
    energyFactor: 1,
    setPlan: (p) => {
      plan = p;
    },
    injected,
    seen,
    head: () => tip().number,
    solidHead: () => Math.max(0, tip().number - self.solidLag),
    produce(n = 1) {
      for (let i = 0; i < n; i++) produceOne();
    },
    reorg(depth, drop) {
      if (depth < 1 || tip().number - depth < self.solidHead() + 0 || depth >= blocks.length) throw new Error('reorg reaches solidified blocks');
      const removed = blocks.splice(blocks.length - depth, depth);
      for (const b of removed) for (const t of b.txs) where.delete(t.tx.txID);
      const back = removed.flatMap((b) => b.txs.map((t) => t.tx)).filter((t) => !drop?.(t.txID));
      pending = [...back, ...pending];
      for (let i = 0; i <= depth; i++) produceOne();
    },
    fundTrx(to, sun) {
      const tx = synthetic({ type: 'trx', from: 'faucet', to: h41(to), amount: sun });
      pending.push(tx);
      return tx.txID;
    },
    mint(to, amount) {
      const s = tip().state!;
      s.token.set(h41(to), (s.token.get(h41(to)) ?? 0n) + amount);
    },
    payToken(from, to, amount) {
      const s = tip().state!;
      const f = h41(from);
      s.token.set(f, (s.token.get(f) ?? 0n) + amount);
      if (!s.exists.has(f)) {
        s.exists.add(f);
        s.trx.set(f, 1_000_000_000n);
      }
      const tx = synthetic({ type: 'token', from: f, to: h41(to), amount, feeLimit: 100_000_000n, contract: contract41 });
      pending.push(tx);
      return tx.txID;
    },
    stake(address, energy) {
      staked.set(h41(address), energy);
    },
    frozenEnergySun: (a) => tip().state!.frozen.get(h41(a)) ?? 0n,
    delegatedEnergySun: (from, to) => tip().state!.delegated.get(`${h41(from)}>${h41(to)}`) ?? 0n,
    energyUsed: (a) => tip().state!.energyUsed.get(h41(a)) ?? 0n,
    stakeOps: () =>
      blocks.flatMap((b) =>
        b.txs.flatMap(({ tx: { txID, op } }): ReturnType<FakeTronNode['stakeOps']> =>
          op.type === 'freeze'
            ? [{ txid: txID, type: op.type, from: fromHex(op.from), to: null, amount: op.amount }]
            : op.type === 'delegate' || op.type === 'undelegate'
              ? [{ txid: txID, type: op.type, from: fromHex(op.from), to: fromHex(op.to), amount: op.amount }]
              : [],
        ),
      ),
    tokenBalance: (a) => tip().state!.token.get(h41(a)) ?? 0n,
    trxBalance: (a) => tip().state!.trx.get(h41(a)) ?? 0n,
    included: (txid) => where.has(txid),
    pool: () => pending.map((t) => t.txID),
    close: async () => {},
  };

  function synthetic(op: Extract<Op, { type: 'trx' | 'token' }>): FakeTx {
    const txID = randomBytes(32).toString('hex');
    const value =
      op.type === 'trx'
        ? { owner_address: op.from, to_address: op.to, amount: Number(op.amount) }
        : { owner_address: op.from, contract_address: op.contract, data: `a9059cbb${word(BigInt(`0x${op.to.slice(2)}`))}${word(op.amount)}` };
    return {
      txID,
      op,
      json: { txID, raw_data: { contract: [{ parameter: { value }, type: op.type === 'trx' ? 'TransferContract' : 'TriggerSmartContract' }] } },
      expiration: Number.MAX_SAFE_INTEGER,
      ref: null,
    };
  }

  /** Bandwidth: free bytes first, else TRX at 1000 sun per byte. @returns sun burned */
  function bandwidth(s: State, who: string, bytes: bigint): bigint {
    const used = s.netUsed.get(who) ?? 0n;
    if (used + bytes <= FREE_NET) {
      s.netUsed.set(who, used + bytes);
      return 0n;
    }
    const fee = bytes * 1000n;
    s.trx.set(who, (s.trx.get(who) ?? 0n) - fee);
    return fee;
  }

  /** Sun `a` delegates to others (`out`) or receives from others. */
  function delegatedSum(s: State, a: string, out: boolean): bigint {
    let sum = 0n;
    for (const [key, sun] of s.delegated) {
      const [from, to] = key.split('>');
      if ((out ? from : to) === a) sum += sun;
    }
    return sum;
  }

  /** EnergyLimit: the legacy `stake` plus the energy of own stake kept, plus delegations received. */
  function energyLimit(s: State, a: string): bigint {
    return (staked.get(a) ?? 0n) + energyOfStake((s.frozen.get(a) ?? 0n) - delegatedSum(s, a, true) + delegatedSum(s, a, false));
  }

  /** Sun of stake `a` may delegate: own stake not delegated, less the stake its used energy stands for. */
  function canDelegate(s: State, a: string): bigint {
    const used = s.energyUsed.get(a) ?? 0n;
    const usedSun = (used * TOTAL_ENERGY_WEIGHT * 1_000_000n + TOTAL_ENERGY_LIMIT - 1n) / TOTAL_ENERGY_LIMIT;
    const left = (s.frozen.get(a) ?? 0n) - delegatedSum(s, a, true) - usedSun;
    return left > 0n ? left : 0n;
  }

  /** Why a Stake 2.0 operation is invalid in state `s` (java-tron's validation messages), or null. */
  function stakeInvalid(s: State, op: Extract<Op, { type: 'freeze' | 'delegate' | 'undelegate' }>): string | null {
    if (op.type === 'freeze') {
      if (op.amount < 1_000_000n) return 'frozenBalance must be greater than or equal to 1 TRX';
      if (op.amount > (s.trx.get(op.from) ?? 0n)) return 'frozenBalance must be less than or equal to accountBalance';
      return null;
    }
    if (!s.exists.has(op.to)) return 'Account does not exist';
    if (op.to === op.from) return 'receiverAddress must not be the same as ownerAddress';
    if (op.type === 'delegate') {
      if (op.amount < 1_000_000n) return 'delegateBalance must be greater than or equal to 1 TRX';
      if (op.amount > canDelegate(s, op.from)) return 'delegateBalance must be less than or equal to available FreezeEnergyV2 balance';
      return null;
    }
    if (op.amount <= 0n || op.amount > (s.delegated.get(`${op.from}>${op.to}`) ?? 0n)) return 'insufficient delegatedFrozenBalance(Energy)';
    return null;
  }

  function energyOf(s: State, to: string): bigint {
    return BigInt((s.token.get(to) ?? 0n) > 0n ? ENERGY_HOLDER : ENERGY_NEW_HOLDER);
  }

  /** Applies `tx` to `s`. @returns its info, or null when it is invalid now (dropped, as java-tron drops it) */
  function apply(s: State, tx: FakeTx, number: number, timestamp: number): Record<string, unknown> | null {
    const op = tx.op;
    const base = { id: tx.txID, blockNumber: number, blockTimeStamp: timestamp, contractResult: [''] };
    if (op.type === 'freeze' || op.type === 'delegate' || op.type === 'undelegate') {
      if (stakeInvalid(s, op)) return null;
      const fee = bandwidth(s, op.from, TRANSFER_BYTES);
      if (op.type === 'freeze') {
        s.trx.set(op.from, (s.trx.get(op.from) ?? 0n) - op.amount);
        s.frozen.set(op.from, (s.frozen.get(op.from) ?? 0n) + op.amount);
      } else {
        const key = `${op.from}>${op.to}`;
        if (op.type === 'undelegate') {
          // The receiver's usage of the energy taken back moves to the owner (UnDelegateResourceActuator).
          const limit = energyLimit(s, op.to);
          const used = s.energyUsed.get(op.to) ?? 0n;
          let moved = limit > 0n ? (used * energyOfStake(op.amount)) / limit : used;
          if (moved > used) moved = used;
          s.energyUsed.set(op.to, used - moved);
          s.energyUsed.set(op.from, (s.energyUsed.get(op.from) ?? 0n) + moved);
        }
        const now = (s.delegated.get(key) ?? 0n) + (op.type === 'delegate' ? op.amount : -op.amount);
        if (now === 0n) s.delegated.delete(key);
        else s.delegated.set(key, now);
      }
      return { ...base, ...(fee ? { fee: Number(fee) } : {}), receipt: fee ? { net_fee: Number(fee) } : { net_usage: Number(TRANSFER_BYTES) } };
    }
    if (op.type === 'trx') {
      const created = !s.exists.has(op.to);
      let fee = 0n;
      if (op.from !== 'faucet') {
        fee = bandwidth(s, op.from, TRANSFER_BYTES) + (created ? 1_100_000n : 0n);
        s.trx.set(op.from, (s.trx.get(op.from) ?? 0n) - op.amount - (created ? 1_100_000n : 0n));
      }
      s.exists.add(op.to);
      s.trx.set(op.to, (s.trx.get(op.to) ?? 0n) + op.amount);
      return { ...base, ...(fee ? { fee: Number(fee) } : {}), receipt: { net_usage: Number(TRIGGER_BYTES), ...(created ? { net_fee: 100_000 } : {}) } };
    }
    if (op.type !== 'token') return null;
    const from = op.from;
    const net = bandwidth(s, from, TRIGGER_BYTES);
    const balance = s.token.get(from) ?? 0n;
    const reverts = balance < op.amount;
    const need = reverts ? 1_000n : BigInt(Math.ceil(Number(energyOf(s, op.to)) * self.energyFactor));
    const stakedLeft = energyLimit(s, from) - (s.energyUsed.get(from) ?? 0n);
    const fromStake = stakedLeft > 0n ? (stakedLeft < need ? stakedLeft : need) : 0n;
    s.energyUsed.set(from, (s.energyUsed.get(from) ?? 0n) + fromStake);
    const burnNeeded = (need - fromStake) * self.energySun;
    const trx = s.trx.get(from) ?? 0n;
    const allowed = op.feeLimit < trx ? op.feeLimit : trx;
    const receipt = (result: string, burned: bigint, used: bigint) => ({
      energy_usage: Number(fromStake),
      energy_fee: Number(burned),
      energy_usage_total: Number(used),
      net_usage: net ? 0 : Number(TRIGGER_BYTES),
      ...(net ? { net_fee: Number(net) } : {}),
      result,
    });
    if (burnNeeded > allowed) {
      s.trx.set(from, trx - allowed);
      return { ...base, fee: Number(allowed + net), contract_address: contract41, receipt: receipt('OUT_OF_ENERGY', allowed, need), result: 'FAILED', resMessage: hex('Not enough energy') };
    }
    s.trx.set(from, trx - burnNeeded);
    if (reverts) return { ...base, fee: Number(burnNeeded + net), contract_address: contract41, receipt: receipt('REVERT', burnNeeded, need), result: 'FAILED', resMessage: hex('REVERT opcode executed') };
    s.token.set(from, balance - op.amount);
    s.token.set(op.to, (s.token.get(op.to) ?? 0n) + op.amount);
    return {
      ...base,
      fee: Number(burnNeeded + net),
      contract_address: contract41,
      receipt: receipt('SUCCESS', burnNeeded, need),
      log: [{ address: contract41.slice(2), topics: [TRANSFER_TOPIC, word(BigInt(`0x${from.slice(2)}`)), word(BigInt(`0x${op.to.slice(2)}`))], data: word(op.amount) }],
    };
  }

  function refOk(ref: FakeTx['ref']): boolean {
    if (!ref) return true;
    return blocks.some((b) => (b.number & 0xffff).toString(16).padStart(4, '0') === ref.bytes && b.hash.slice(16, 32) === ref.hash);
  }

  function produceOne() {
    const parent = tip();
    const state = clone(parent.state!);
    const number = parent.number + 1;
    const timestamp = parent.timestamp + BLOCK_MS;
    const txs: Included[] = [];
    for (const tx of pending) {
      if (tx.expiration <= parent.timestamp) {
        expired.add(tx.txID);
        continue;
      }
      if (!refOk(tx.ref) || self.included(tx.txID) || txs.some((t) => t.tx.txID === tx.txID)) continue;
      const info = apply(state, tx, number, timestamp);
      if (info) txs.push({ tx, info });
    }
    pending = [];
    blocks.push({ number, hash: makeHash(number, parent.hash), parentHash: parent.hash, timestamp, txs, state });
    for (const t of txs) where.set(t.tx.txID, number);
    const old = blocks[number - self.solidLag - 2];
    if (old && old.number > 0) old.state = undefined;
  }

  const blockAt = (num: number, solid: boolean): Block | undefined => {
    if (solid && num > self.solidHead()) return undefined;
    return blocks[num];
  };
  const blockJson = (b: Block, detail: boolean) => ({
    blockID: b.hash,
    block_header: {
      raw_data: { number: b.number, txTrieRoot: '0'.repeat(64), witness_address: '41'.padEnd(42, '0'), parentHash: b.parentHash, version: 31, timestamp: b.timestamp },
      witness_signature: '00',
    },
    ...(detail && b.txs.length ? { transactions: b.txs.map((t) => ({ ...t.tx.json, ret: [{ contractRet: String((t.info.receipt as { result?: string }).result ?? 'SUCCESS') }] })) } : {}),
  });
  const findTx = (txid: string, solid: boolean): Included | undefined => {
    const n = where.get(txid);
    if (n === undefined || (solid && n > self.solidHead())) return undefined;
    return blocks[n]!.txs.find((x) => x.tx.txID === txid);
  };

  function broadcast(body: Record<string, unknown>): Record<string, unknown> {
    const raw = body.raw_data as Record<string, unknown>;
    const fail = (code: string, message: string, txid?: string) => ({ result: false, code, message: hex(message), ...(txid ? { txid } : {}) });
    let txID: string;
    try {
      const pb = utils.transaction.txJsonToPb({ raw_data: raw });
      txID = utils.transaction.txPbToTxID(pb).replace(/^0x/, '').toLowerCase();
    } catch {
      return fail('OTHER_ERROR', 'cannot parse raw_data');
    }
    const c = (raw.contract as { parameter: { value: Record<string, unknown> }; type: string }[])[0]!;
    const owner = String(c.parameter.value.owner_address).toLowerCase();
    const sig = (body.signature as string[] | undefined)?.[0];
    if (!sig) return fail('SIGERROR', 'miss sig or contract', txID);
    let signer: string;
    try {
      signer = utils.crypto.ecRecover(txID, sig).toLowerCase();
    } catch {
      return fail('SIGERROR', 'Validate signature error', txID);
    }
    if (signer !== owner) return fail('SIGERROR', 'Validate signature error: signature is not the owner', txID);
    if (self.included(txID) || pending.some((t) => t.txID === txID)) return fail('DUP_TRANSACTION_ERROR', 'dup transaction', txID);
    const expiration = Number(raw.expiration);
    if (expiration <= tip().timestamp) return fail('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired', txID);
    const ref = { bytes: String(raw.ref_block_bytes), hash: String(raw.ref_block_hash) };
    if (!refOk(ref)) return fail('TAPOS_ERROR', 'Tapos check error', txID);
    const s = tip().state!;
    if (!s.exists.has(owner)) return fail('CONTRACT_VALIDATE_ERROR', 'Validate TransferContract error, no OwnerAccount.', txID);
    let op: Op;
    if (c.type === 'TransferContract') {
      const amount = BigInt(c.parameter.value.amount as number);
      if ((s.trx.get(owner) ?? 0n) < amount) return fail('CONTRACT_VALIDATE_ERROR', 'Validate TransferContract error, balance is not sufficient.', txID);
      op = { type: 'trx', from: owner, to: String(c.parameter.value.to_address).toLowerCase(), amount };
    } else if (c.type === 'TriggerSmartContract') {
      const data = String(c.parameter.value.data);
      if (String(c.parameter.value.contract_address).toLowerCase() !== contract41 || !data.startsWith('a9059cbb'))
        return fail('CONTRACT_VALIDATE_ERROR', 'No contract or not a smart contract', txID);
      op = { type: 'token', from: owner, to: `41${data.slice(8 + 24, 8 + 64)}`, amount: BigInt(`0x${data.slice(72, 136)}`), feeLimit: BigInt(raw.fee_limit as number), contract: contract41 };
    } else if (c.type === 'FreezeBalanceV2Contract' || c.type === 'DelegateResourceContract' || c.type === 'UnDelegateResourceContract') {
      const v = c.parameter.value;
      if ((v.resource ?? 'BANDWIDTH') !== 'ENERGY') return fail('CONTRACT_VALIDATE_ERROR', 'only ENERGY is supported here', txID);
      op =
        c.type === 'FreezeBalanceV2Contract'
          ? { type: 'freeze', from: owner, amount: BigInt(v.frozen_balance as number) }
          : {
              type: c.type === 'DelegateResourceContract' ? 'delegate' : 'undelegate',
              from: owner,
              to: String(v.receiver_address).toLowerCase(),
              amount: BigInt(v.balance as number),
            };
      const invalid = stakeInvalid(s, op);
      if (invalid) return fail('CONTRACT_VALIDATE_ERROR', invalid, txID);
    } else {
      return fail('CONTRACT_VALIDATE_ERROR', `unsupported contract ${c.type}`, txID);
    }
    pending.push({ txID, op, json: { ...body, txID }, expiration, ref });
    return { result: true, txid: txID };
  }

  function handle(path: string, body: Record<string, unknown>, fault: FakeFault | null): unknown {
    const solid = path.startsWith('/walletsolidity/');
    const name = path.replace(/^\/wallet(solidity)?\//, '');
    const missing = fault?.kind === 'missing';
    switch (name) {
      case 'getnowblock': {
        const b = blocks[solid ? self.solidHead() : tip().number]!;
        return blockJson(missing && b.number > 0 ? blocks[b.number - 1]! : b, true);
      }
      case 'getblock': {
        const b = blockAt(Number(body.id_or_num), solid);
        return !b || missing ? {} : blockJson(b, body.detail === true);
      }
      case 'getblockbylimitnext': {
        const out: unknown[] = [];
        for (let n = Number(body.startNum); n < Number(body.endNum); n++) {
          const b = blockAt(n, solid);
          if (!b || (missing && n > Number(body.startNum))) break;
          out.push(blockJson(b, true));
        }
        return out.length ? { block: out } : {};
      }
      case 'gettransactioninfobyblocknum': {
        const b = blockAt(Number(body.num), solid);
        let infos = b ? b.txs.map((t) => t.info) : [];
        if (missing) infos = infos.slice(0, Math.floor(infos.length / 2));
        if (fault?.kind === 'duplicate') infos = [...infos, ...infos];
        return infos;
      }
      case 'gettransactioninfobyid': {
        const t = findTx(String(body.value).toLowerCase(), solid);
        return t && !missing ? t.info : {};
      }
      case 'getaccount': {
        const a = String(body.address).toLowerCase();
        const s = tip().state!;
        return s.exists.has(a) ? { address: a, balance: Number(s.trx.get(a) ?? 0n), create_time: 0 } : {};
      }
      case 'getaccountresource': {
        const a = String(body.address).toLowerCase();
        const s = tip().state!;
        return {
          freeNetLimit: Number(FREE_NET),
          freeNetUsed: Number(s.netUsed.get(a) ?? 0n),
          EnergyLimit: Number(energyLimit(s, a)),
          EnergyUsed: Number(s.energyUsed.get(a) ?? 0n),
          TotalEnergyLimit: Number(TOTAL_ENERGY_LIMIT),
          TotalEnergyWeight: Number(TOTAL_ENERGY_WEIGHT),
        };
      }
      case 'getcandelegatedmaxsize': {
        if (Number(body.type ?? 0) !== 1) return { max_size: 0 };
        return { max_size: Number(canDelegate(tip().state!, String(body.owner_address).toLowerCase())) };
      }
      case 'getdelegatedresourcev2': {
        const from = String(body.fromAddress).toLowerCase();
        const to = String(body.toAddress).toLowerCase();
        const sun = tip().state!.delegated.get(`${from}>${to}`) ?? 0n;
        return sun ? { delegatedResource: [{ from, to, frozen_balance_for_energy: Number(sun) }] } : {};
      }
      case 'getchainparameters':
        return {
          chainParameter: [
            { key: 'getTransactionFee', value: 1000 },
            { key: 'getEnergyFee', value: Number(self.energySun) },
            { key: 'getCreateAccountFee', value: 100_000 },
            { key: 'getCreateNewAccountFeeInSystemContract', value: 1_000_000 },
          ],
        };
      case 'triggerconstantcontract': {
        const owner = String(body.owner_address).toLowerCase();
        const data = String(body.data ?? '');
        const s = tip().state!;
        if (String(body.contract_address).toLowerCase() !== contract41) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hex('No contract or not a smart contract') } };
        if (data.startsWith('70a08231')) {
          const who = `41${data.slice(8 + 24, 8 + 64)}`;
          return { result: { result: true }, energy_used: 935, constant_result: [word(s.token.get(who) ?? 0n)], transaction: { ret: [{}] } };
        }
        if (data.startsWith('a9059cbb')) {
          const to = `41${data.slice(8 + 24, 8 + 64)}`;
          const amount = BigInt(`0x${data.slice(72, 136)}`);
          if ((s.token.get(owner) ?? 0n) < amount)
            return { result: { result: true }, energy_used: 1_000, constant_result: ['08c379a0'], transaction: { ret: [{ ret: 'FAILED' }] } };
          return { result: { result: true }, energy_used: Number(energyOf(s, to)), constant_result: [word(1n)], transaction: { ret: [{}] } };
        }
        return { result: { code: 'CONTRACT_EXE_ERROR', message: hex('REVERT opcode executed') } };
      }
      case 'broadcasttransaction': {
        const first = broadcast(body);
        return fault?.kind === 'duplicate' ? broadcast(body) : first;
      }
      default:
        return null;
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      let body: Record<string, unknown> = {};
      try {
        body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : {};
      } catch {
        res.writeHead(400).end();
        return;
      }
      seen[path] = (seen[path] ?? 0) + 1;
      const fault = plan?.(path, body) ?? null;
      if (fault) injected[fault.kind] = (injected[fault.kind] ?? 0) + 1;
      if (fault?.kind === '503' || fault?.kind === '429') {
        res.writeHead(Number(fault.kind), { 'content-type': 'text/plain' }).end(fault.kind === '429' ? 'Too Many Requests' : 'Service Unavailable');
        return;
      }
      const answer = handle(path, body, fault);
      if (answer === null) {
        res.writeHead(404).end();
        return;
      }
      if (fault?.kind === 'lost') {
        res.socket?.destroy();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  self.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  self.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return self;
}

export { fromHex };
