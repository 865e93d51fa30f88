/**
 * TRON transactions built and signed locally (docs/payments.md, "tron — USDT on TRON"): the raw
 * data is assembled here, serialized to protobuf by tronweb (`txJsonToPb`), and its id is the
 * SHA-256 of those bytes — known before broadcast, so a payout is stored under its txid before any
 * node sees it. The reference block (TaPoS) is a solidified block, which no reorg removes; the
 * expiration is the reference block's time plus the configured seconds (the node refuses a
 * transaction past it, and no block whose parent is at or past it may include it).
 */
import utils from 'tronweb/utils';
import { accountId, toHex41 } from './address';
import type { BlockRef, SignedTx } from './node';

export interface UnsignedTx {
  txID: string;
  raw_data: Record<string, unknown>;
  raw_data_hex: string;
}

interface Common {
  /** The solidified block the transaction refers to. */
  ref: BlockRef;
  /** Milliseconds after the reference block's time at which the transaction expires. */
  lifetimeMs: number;
}

function finish(rawData: Record<string, unknown>): UnsignedTx {
  const pb = utils.transaction.txJsonToPb({ raw_data: rawData });
  return {
    txID: utils.transaction.txPbToTxID(pb).replace(/^0x/, '').toLowerCase(),
    raw_data: rawData,
    raw_data_hex: utils.transaction.txPbToRawDataHex(pb).toLowerCase(),
  };
}

function tapos({ ref, lifetimeMs }: Common) {
  return {
    ref_block_bytes: (Number(ref.number & 0xffffn)).toString(16).padStart(4, '0'),
    ref_block_hash: ref.hash.slice(16, 32),
    expiration: ref.timestamp + lifetimeMs,
    timestamp: ref.timestamp,
  };
}

/** ABI call data of `transfer(to, amount)` (selector a9059cbb). */
export function transferData(to: string, amount: bigint): string {
  return `a9059cbb${accountId(to).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`;
}

/** A TRC-20 `transfer(to, amount)` from `from`, paying at most `feeLimitSun` for energy. */
export function buildTokenTransfer(input: Common & { from: string; contract: string; to: string; amount: bigint; feeLimitSun: bigint }): UnsignedTx {
  return finish({
    contract: [
      {
        parameter: {
          value: { data: transferData(input.to, input.amount), owner_address: toHex41(input.from), contract_address: toHex41(input.contract) },
          type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
        },
        type: 'TriggerSmartContract',
      },
    ],
    ...tapos(input),
    fee_limit: Number(input.feeLimitSun),
  });
}

/** A plain TRX transfer of `amountSun` (activates `to` if it has no account yet). */
export function buildTrxTransfer(input: Common & { from: string; to: string; amountSun: bigint }): UnsignedTx {
  return finish({
    contract: [
      {
        parameter: {
          value: { amount: Number(input.amountSun), owner_address: toHex41(input.from), to_address: toHex41(input.to) },
          type_url: 'type.googleapis.com/protocol.TransferContract',
        },
        type: 'TransferContract',
      },
    ],
    ...tapos(input),
  });
}

/**
 * Stake 2.0 `DelegateResourceContract` (`undelegate`: `UnDelegateResourceContract`): `from` lends
 * (takes back) the energy of `balanceSun` of its TRX staked for energy to (from) `to`, unlocked.
 */
export function buildEnergyDelegation(input: Common & { from: string; to: string; balanceSun: bigint; undelegate: boolean }): UnsignedTx {
  const type = input.undelegate ? 'UnDelegateResourceContract' : 'DelegateResourceContract';
  return finish({
    contract: [
      {
        parameter: {
          value: {
            owner_address: toHex41(input.from),
            receiver_address: toHex41(input.to),
            balance: Number(input.balanceSun),
            resource: 'ENERGY',
            ...(input.undelegate ? {} : { lock: false }),
          },
          type_url: `type.googleapis.com/protocol.${type}`,
        },
        type,
      },
    ],
    ...tapos(input),
  });
}

/** Stake 2.0 `FreezeBalanceV2Contract`: `from` stakes `balanceSun` of its TRX for energy. */
export function buildEnergyStake(input: Common & { from: string; balanceSun: bigint }): UnsignedTx {
  return finish({
    contract: [
      {
        parameter: {
          value: { owner_address: toHex41(input.from), frozen_balance: Number(input.balanceSun), resource: 'ENERGY' },
          type_url: 'type.googleapis.com/protocol.FreezeBalanceV2Contract',
        },
        type: 'FreezeBalanceV2Contract',
      },
    ],
    ...tapos(input),
  });
}

/** Signs `tx` with a hex private key (64 digits): the signature over its txid. */
export function signTx(tx: UnsignedTx, privateKeyHex: string): SignedTx {
  const signed = utils.crypto.signTransaction(privateKeyHex, { ...tx, visible: false } as never) as unknown as SignedTx;
  return { txID: tx.txID, raw_data: tx.raw_data, raw_data_hex: tx.raw_data_hex, signature: signed.signature, visible: false };
}

/** The hex address (`41...`, lower case) whose key made `signature` over `txid`. */
export function signerOf(txid: string, signature: string): string {
  return utils.crypto.ecRecover(txid, signature).toLowerCase();
}
