/**
 * TEP-74 jetton messages and transaction reading for the `ton` provider (Jetton standard,
 * https://github.com/ton-blockchain/TEPs/blob/master/text/0074-jettons-standard.md): the transfer a
 * hot wallet sends its jetton wallet, the `internal_transfer` a jetton wallet receives, text
 * comments (op 0), the wallet address of an owner (`get_wallet_address` of the master), and what
 * counts as a successful transaction. Pure functions, except {@link jettonWalletOf} (one get method).
 */
import { randomInt } from 'node:crypto';
import { Address, beginCell, Cell, storeMessage, type Message, type Slice, type Transaction } from '@ton/core';
import type { TonApi } from './api';

/** `transfer` (owner -> its jetton wallet). */
export const OP_TRANSFER = 0x0f8a7ea5;
/** `internal_transfer` (jetton wallet -> jetton wallet, or master -> wallet when minting). */
export const OP_INTERNAL_TRANSFER = 0x178d4519;
/** `transfer_notification` (jetton wallet -> its owner). */
export const OP_TRANSFER_NOTIFICATION = 0x7362d09c;

/** A text comment cell: op 0, then the text (snake format across refs when long). */
export function commentCell(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(text).endCell();
}

/**
 * The body of a jetton `transfer` (TEP-74): `amount` base units to `destination` (the recipient's
 * owner address, not its jetton wallet), the excess TON back to `responseDestination`,
 * `forwardTonAmount` nanotons (>= 1 makes the recipient's wallet notify its owner with the comment),
 * and the comment `memo` as forward payload ('' = none).
 */
export function jettonTransferBody(p: {
  queryId: bigint;
  amount: bigint;
  destination: Address;
  responseDestination: Address;
  forwardTonAmount: bigint;
  memo: string;
}): Cell {
  const b = beginCell()
    .storeUint(OP_TRANSFER, 32)
    .storeUint(p.queryId, 64)
    .storeCoins(p.amount)
    .storeAddress(p.destination)
    .storeAddress(p.responseDestination)
    .storeBit(false) // no custom payload
    .storeCoins(p.forwardTonAmount);
  if (p.memo) b.storeBit(true).storeRef(commentCell(p.memo));
  else b.storeBit(false);
  return b.endCell();
}

/** The text of a forward payload slice that is a comment (op 0), trimmed; null for anything else. */
export function readComment(payload: Slice): string | null {
  try {
    if (payload.remainingBits < 32) return null;
    if (payload.loadUint(32) !== 0) return null;
    const text = payload.loadStringTail().trim();
    return text || null;
  } catch {
    return null;
  }
}

export interface InternalTransfer {
  queryId: bigint;
  /** Jetton base units. */
  amount: bigint;
  /** The sender's owner address as the message names it (null for `addr_none`). */
  from: Address | null;
  forwardTonAmount: bigint;
  /** The comment of the forward payload, or null. */
  comment: string | null;
}

/** Reads an `internal_transfer` body. @returns null when the body is not one (other op, malformed) */
export function parseInternalTransfer(body: Cell): InternalTransfer | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== OP_INTERNAL_TRANSFER) return null;
    const queryId = s.loadUintBig(64);
    const amount = s.loadCoins();
    const from = s.loadMaybeAddress();
    s.loadMaybeAddress(); // response address
    const forwardTonAmount = s.loadCoins();
    let comment: string | null = null;
    if (s.remainingBits > 0) {
      const inRef = s.loadBit();
      comment = inRef ? (s.remainingRefs ? readComment(s.loadRef().beginParse()) : null) : readComment(s);
    }
    return { queryId, amount, from, forwardTonAmount, comment };
  } catch {
    return null;
  }
}

/** Reads a jetton `transfer` body's query id, amount and destination. @returns null when it is not one */
export function parseTransfer(body: Cell): { queryId: bigint; amount: bigint; destination: Address } | null {
  try {
    const s = body.beginParse();
    if (s.remainingBits < 32 || s.loadUint(32) !== OP_TRANSFER) return null;
    return { queryId: s.loadUintBig(64), amount: s.loadCoins(), destination: s.loadAddress() };
  } catch {
    return null;
  }
}

/** The hash of a message cell (hex): how an external message is found in the wallet's transactions. */
export function messageHash(message: Message): string {
  return beginCell().store(storeMessage(message)).endCell().hash().toString('hex');
}

/**
 * True when a transaction ran to the end: an ordinary transaction, not aborted, whose compute phase
 * succeeded and whose action phase (if any) succeeded. Anything else undid its effects.
 */
export function txSucceeded(tx: Transaction): boolean {
  const d = tx.description;
  if (d.type !== 'generic') return false;
  if (d.aborted) return false;
  if (d.computePhase.type !== 'vm' || !d.computePhase.success) return false;
  return !d.actionPhase || d.actionPhase.success;
}

/** A transaction's hash, hex. */
export const txHashHex = (tx: Transaction): string => tx.hash().toString('hex');

/**
 * The jetton wallet of `owner` for the jetton `master` (its `get_wallet_address`). A jetton wallet
 * of another master — a fake USDT with the same name — has another address, so comparing with this
 * tells real USDT from fakes (ADR 0055).
 * @throws when the call fails
 */
export async function jettonWalletOf(api: TonApi, master: Address, owner: Address): Promise<Address> {
  const stack = await api.runGetMethod(master, 'get_wallet_address', [
    { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
  ]);
  return stack.readAddress();
}

/** Memo alphabet: upper-case letters and digits without the look-alikes 0/O, 1/I/L. */
const MEMO_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Memo length: 31^8 (about 8.5e11) codes; a clash is retried. */
export const MEMO_LENGTH = 8;

/** A fresh random memo (a bill's short code), e.g. `K7QX3MPA`. */
export function newMemo(): string {
  let out = '';
  for (let i = 0; i < MEMO_LENGTH; i++) out += MEMO_ALPHABET[randomInt(MEMO_ALPHABET.length)];
  return out;
}

/** How a received comment is compared with memos: spaces removed, upper case. */
export const normalizeMemo = (text: string): string => text.replace(/\s+/g, '').toUpperCase();
