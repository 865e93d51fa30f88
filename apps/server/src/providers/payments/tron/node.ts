/**
 * The TRON node's HTTP API as Coffer uses it (docs/payments.md, "tron — USDT on TRON"): POST
 * `/wallet/*` (the node's latest state, unsolidified) and `/walletsolidity/*` (solidified state:
 * blocks about 19 behind the head, confirmed by two thirds of the super representatives, never
 * reorganised). Every call has a timeout; any failure (timeout, HTTP 429/5xx, a dropped connection, a
 * body with `Error`) throws a {@link TronNodeError} whose message names the path and never the URL
 * (a provider URL may embed a key). Nothing here touches the database.
 *
 * Units: TRX amounts in sun (bigint, 1 TRX = 1,000,000 sun), token amounts in base units (bigint),
 * energy and bandwidth in their own units, times in ms since the epoch. Addresses: base58 `T...`.
 */
import { accountId, fromHex, toHex41 } from './address';
import type { TronSettings } from './config';

/** A failed call to the node: nothing may be concluded from it (try again later). */
export class TronNodeError extends Error {
  override name = 'TronNodeError';
  constructor(
    message: string,
    /** The HTTP status, when the node answered one. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** keccak256("Transfer(address,address,uint256)"): topic 0 of a TRC-20 Transfer event. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface BlockRef {
  number: bigint;
  /** blockID, 64 hex digits. */
  hash: string;
  parentHash: string;
  /** Block time, ms. */
  timestamp: number;
}

/** A block with the ids of its transactions. */
export interface BlockWithTxs extends BlockRef {
  txids: string[];
}

/** A TRC-20 Transfer event as found in a transaction's info. */
export interface TransferLog {
  txid: string;
  /** The log's position in its transaction. */
  logIndex: number;
  blockNumber: bigint;
  /** The emitting contract, base58. */
  contract: string;
  from: string;
  to: string;
  /** Base units. */
  value: bigint;
}

/** What `gettransactioninfobyid` tells of a transaction that made it into a block. */
export interface TxInfo {
  id: string;
  blockNumber: bigint;
  blockTimestamp: number;
  /** TRX burned for it (energy and bandwidth), sun. */
  feeSun: bigint;
  energyUsage: number;
  /** The contract call's outcome: SUCCESS, REVERT, OUT_OF_ENERGY...; 'SUCCESS' for plain transfers. */
  receiptResult: string;
  /** True when the transaction failed (`result: FAILED`, or a receipt other than SUCCESS). */
  failed: boolean;
  logs: RawLog[];
}

interface RawLog {
  address?: string;
  topics?: string[];
  data?: string;
}

interface RawInfo {
  id?: string;
  blockNumber?: number;
  blockTimeStamp?: number;
  fee?: number;
  receipt?: { result?: string; energy_usage_total?: number };
  result?: string;
  log?: RawLog[];
}

interface RawBlock {
  blockID?: string;
  block_header?: { raw_data?: { number?: number; timestamp?: number; parentHash?: string } };
  transactions?: { txID?: string }[];
}

/** A broadcast's answer: accepted, or the node's code (DUP_TRANSACTION_ERROR, SIGERROR...) and message. */
export type BroadcastAnswer = { accepted: true } | { accepted: false; code: string; message: string };

export interface TronNode {
  /** The latest block (`solid`: the latest solidified block). */
  nowBlock(solid: boolean): Promise<BlockRef>;
  /** Block `num`'s header, or null when the node has no such block. */
  block(num: bigint, solid: boolean): Promise<BlockRef | null>;
  /** Blocks `from`..`to` (inclusive, at most 100) of the solidified chain, with their transaction ids. */
  solidBlocks(from: bigint, to: bigint): Promise<BlockWithTxs[]>;
  /** Block `num` with its transaction ids, or null when the node has no such block. */
  blockWithTxs(num: bigint, solid: boolean): Promise<BlockWithTxs | null>;
  /** The infos of every transaction in block `num` (empty for an empty or unknown block). */
  txInfosOfBlock(num: bigint, solid: boolean): Promise<TxInfo[]>;
  /** A transaction's info, or null when the node knows no block holding it. */
  txInfo(txid: string, solid: boolean): Promise<TxInfo | null>;
  /** TRX balance (sun) and whether the account exists (is activated). */
  account(address: string): Promise<{ exists: boolean; balanceSun: bigint }>;
  /**
   * Energy the account may use now from its stake (or delegations), its free and staked bandwidth
   * left, and the network's energy totals (`TotalEnergyLimit` energy a day shared by
   * `TotalEnergyWeight` whole TRX staked for energy): staking `s` sun gives
   * `s × totalEnergyLimit / (totalEnergyWeight × 1,000,000)` energy (Stake 2.0).
   */
  resources(address: string): Promise<{ energy: bigint; bandwidth: bigint; totalEnergyLimit: bigint; totalEnergyWeight: bigint }>;
  /** Sun of staked TRX `owner` may delegate for energy now (`getcandelegatedmaxsize`, type 1). */
  canDelegateEnergySun(owner: string): Promise<bigint>;
  /** Sun of staked TRX `from` delegates for energy to `to` now (`getdelegatedresourcev2`; 0 when none). */
  delegatedEnergySun(from: string, to: string): Promise<bigint>;
  /** Chain parameters: sun per energy unit and per bandwidth byte, and the fee of creating an account. */
  fees(): Promise<{ energySun: bigint; bandwidthSun: bigint; createAccountSun: bigint }>;
  /**
   * Runs `data` against `contract` as `owner` without a transaction (`triggerconstantcontract`).
   * @returns the energy it used, its return data (hex) and whether it reverted (with the node's message)
   */
  call(owner: string, contract: string, data: string): Promise<{ energyUsed: number; result: string; reverted: boolean; message: string }>;
  /** A TRC-20 balance, base units. */
  tokenBalance(contract: string, owner: string): Promise<bigint>;
  /** Sends a signed transaction. Refusals come back as answers; transport failures throw. */
  broadcast(signed: SignedTx): Promise<BroadcastAnswer>;
}

/** A signed transaction in the node's JSON form. */
export interface SignedTx {
  txID: string;
  raw_data: Record<string, unknown>;
  raw_data_hex: string;
  signature: string[];
  visible?: boolean;
}

const hexToText = (hex: string): string => {
  if (!/^[0-9a-fA-F]*$/.test(hex) || hex.length % 2) return hex;
  return Buffer.from(hex, 'hex').toString('utf8');
};

/** A TRC-20 Transfer log of `info`, or null when the log is something else. */
export function transferOf(info: TxInfo, log: RawLog, logIndex: number): TransferLog | null {
  const topics = (log.topics ?? []).map((t) => t.replace(/^0x/, '').toLowerCase());
  if (topics.length !== 3 || topics[0] !== TRANSFER_TOPIC || !log.address) return null;
  const data = (log.data ?? '').replace(/^0x/, '');
  return {
    txid: info.id,
    logIndex,
    blockNumber: info.blockNumber,
    contract: fromHex(log.address),
    from: fromHex(topics[1]!.slice(24)),
    to: fromHex(topics[2]!.slice(24)),
    value: data ? BigInt(`0x${data.slice(0, 64)}`) : 0n,
  };
}

/** Every TRC-20 Transfer in `info`'s logs, with its log index. */
export const transfersOf = (info: TxInfo): TransferLog[] =>
  info.logs.flatMap((l, i) => {
    const t = transferOf(info, l, i);
    return t ? [t] : [];
  });

function toInfo(raw: RawInfo): TxInfo | null {
  if (!raw.id || raw.blockNumber === undefined) return null;
  const receiptResult = raw.receipt?.result ?? 'SUCCESS';
  return {
    id: raw.id.toLowerCase(),
    blockNumber: BigInt(raw.blockNumber),
    blockTimestamp: raw.blockTimeStamp ?? 0,
    feeSun: BigInt(raw.fee ?? 0),
    energyUsage: raw.receipt?.energy_usage_total ?? 0,
    receiptResult,
    failed: raw.result === 'FAILED' || receiptResult !== 'SUCCESS',
    logs: raw.log ?? [],
  };
}

function toBlock(raw: RawBlock): BlockRef | null {
  const h = raw.block_header?.raw_data;
  if (!raw.blockID || h?.number === undefined) return null;
  return {
    number: BigInt(h.number),
    hash: raw.blockID.toLowerCase(),
    parentHash: (h.parentHash ?? '').toLowerCase(),
    timestamp: h.timestamp ?? 0,
  };
}

const withTxs = (raw: RawBlock): BlockWithTxs | null => {
  const b = toBlock(raw);
  return b ? { ...b, txids: (raw.transactions ?? []).map((t) => (t.txID ?? '').toLowerCase()) } : null;
};

/** The node client of validated settings (the global fetch, each call with its timeout). */
export function createTronNode(settings: Pick<TronSettings, 'nodeUrl' | 'solidityUrl' | 'apiKey' | 'timeoutMs'>): TronNode {
  async function post<T>(base: string, path: string, body: unknown): Promise<T> {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(settings.apiKey ? { 'TRON-PRO-API-KEY': settings.apiKey.reveal() } : {}),
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(settings.timeoutMs),
      });
    } catch (err) {
      const e = err as Error;
      throw new TronNodeError(`${path}: ${e.name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : 'connection failed'}`);
    }
    let text: string;
    try {
      text = await res.text();
    } catch {
      throw new TronNodeError(`${path}: the answer was cut off`);
    }
    if (!res.ok) throw new TronNodeError(`${path}: HTTP ${res.status}`, res.status);
    let json: unknown;
    try {
      json = text === '' ? {} : JSON.parse(text);
    } catch {
      throw new TronNodeError(`${path}: not JSON`);
    }
    if (json && typeof json === 'object' && 'Error' in json) throw new TronNodeError(`${path}: ${String((json as { Error: unknown }).Error).slice(0, 200)}`);
    return json as T;
  }
  const wallet = <T>(path: string, body: unknown) => post<T>(settings.nodeUrl, `/wallet/${path}`, body);
  const solidity = <T>(path: string, body: unknown) => post<T>(settings.solidityUrl, `/walletsolidity/${path}`, body);
  const either = <T>(solid: boolean, path: string, body: unknown) => (solid ? solidity<T>(path, body) : wallet<T>(path, body));

  const node: TronNode = {
    async nowBlock(solid) {
      const b = toBlock(await either<RawBlock>(solid, 'getnowblock', {}));
      if (!b) throw new TronNodeError(`getnowblock: no block in the answer`);
      return b;
    },
    async block(num, solid) {
      return toBlock(await either<RawBlock>(solid, 'getblock', { id_or_num: num.toString(), detail: false }));
    },
    async blockWithTxs(num, solid) {
      return withTxs(await either<RawBlock>(solid, 'getblock', { id_or_num: num.toString(), detail: true }));
    },
    async solidBlocks(from, to) {
      const answer = await solidity<{ block?: RawBlock[] }>('getblockbylimitnext', { startNum: Number(from), endNum: Number(to) + 1 });
      return (answer.block ?? []).flatMap((raw) => {
        const b = withTxs(raw);
        return b ? [b] : [];
      });
    },
    async txInfosOfBlock(num, solid) {
      const answer = await either<RawInfo[] | Record<string, never>>(solid, 'gettransactioninfobyblocknum', { num: Number(num) });
      if (!Array.isArray(answer)) return [];
      return answer.flatMap((r) => {
        const i = toInfo(r);
        return i ? [i] : [];
      });
    },
    async txInfo(txid, solid) {
      return toInfo(await either<RawInfo>(solid, 'gettransactioninfobyid', { value: txid }));
    },
    async account(address) {
      const a = await wallet<{ address?: string; balance?: number }>('getaccount', { address: toHex41(address) });
      return { exists: !!a.address, balanceSun: BigInt(a.balance ?? 0) };
    },
    async resources(address) {
      const r = await wallet<Record<string, number | undefined>>('getaccountresource', { address: toHex41(address) });
      const n = (k: string) => BigInt(r[k] ?? 0);
      const energy = n('EnergyLimit') - n('EnergyUsed');
      const bandwidth = n('freeNetLimit') - n('freeNetUsed') + n('NetLimit') - n('NetUsed');
      return {
        energy: energy > 0n ? energy : 0n,
        bandwidth: bandwidth > 0n ? bandwidth : 0n,
        totalEnergyLimit: n('TotalEnergyLimit'),
        totalEnergyWeight: n('TotalEnergyWeight'),
      };
    },
    async canDelegateEnergySun(owner) {
      const r = await wallet<{ max_size?: number }>('getcandelegatedmaxsize', { owner_address: toHex41(owner), type: 1 });
      return BigInt(r.max_size ?? 0);
    },
    async delegatedEnergySun(from, to) {
      const r = await wallet<{ delegatedResource?: { from?: string; to?: string; frozen_balance_for_energy?: number }[] }>('getdelegatedresourcev2', {
        fromAddress: toHex41(from),
        toAddress: toHex41(to),
      });
      return (r.delegatedResource ?? []).reduce((sum, d) => sum + BigInt(d.frozen_balance_for_energy ?? 0), 0n);
    },
    async fees() {
      const p = await wallet<{ chainParameter?: { key: string; value?: number }[] }>('getchainparameters', {});
      const get = (key: string, fallback: number) => BigInt(p.chainParameter?.find((c) => c.key === key)?.value ?? fallback);
      return {
        energySun: get('getEnergyFee', 100),
        bandwidthSun: get('getTransactionFee', 1000),
        createAccountSun: get('getCreateNewAccountFeeInSystemContract', 1_000_000) + get('getCreateAccountFee', 100_000),
      };
    },
    async call(owner, contract, data) {
      const r = await wallet<{
        result?: { result?: boolean; code?: string; message?: string };
        energy_used?: number;
        constant_result?: string[];
        transaction?: { ret?: { ret?: string }[] };
      }>('triggerconstantcontract', { owner_address: toHex41(owner), contract_address: toHex41(contract), data });
      const message = hexToText(r.result?.message ?? '');
      const reverted =
        r.result?.code === 'CONTRACT_EXE_ERROR' ||
        r.result?.code === 'CONTRACT_VALIDATE_ERROR' ||
        r.transaction?.ret?.some((x) => x.ret === 'FAILED') === true ||
        /revert/i.test(message);
      if (!reverted && r.result?.result !== true) throw new TronNodeError(`triggerconstantcontract: ${r.result?.code ?? 'no result'} ${message}`.trim());
      return { energyUsed: r.energy_used ?? 0, result: (r.constant_result ?? [])[0] ?? '', reverted, message };
    },
    async tokenBalance(contract, owner) {
      const r = await node.call(owner, contract, `70a08231${accountId(owner).padStart(64, '0')}`);
      if (r.reverted) throw new TronNodeError(`balanceOf reverted: ${r.message}`);
      if (!/^[0-9a-f]{64}$/i.test(r.result)) throw new TronNodeError('balanceOf: no 32-byte answer');
      return BigInt(`0x${r.result}`);
    },
    async broadcast(signed) {
      const r = await wallet<{ result?: boolean; code?: string; message?: string }>('broadcasttransaction', signed);
      if (r.result === true) return { accepted: true };
      if (!r.code) throw new TronNodeError('broadcasttransaction: an answer without result or code');
      return { accepted: false, code: r.code, message: hexToText(r.message ?? '') };
    },
  };
  return node;
}
