/**
 * TRON addresses and keys (docs/payments.md, "tron — USDT on TRON"), through tronweb's utilities:
 * a TRON address is 0x41 followed by the 20-byte account id of an EVM-style secp256k1 key, written
 * in base58check (`T...`, 34 characters) or as 42 hex digits (`41...`). Contract logs carry the 20
 * bytes alone. Deposit keys are BIP-44 m/44'/195'/0'/0/i (195: TRON's SLIP-44 coin type).
 */
import type { HDKey } from '@scure/bip32';
import utils from 'tronweb/utils';
import { isTronAddress } from './address-format';

export { isTronAddress, TRON_WALLET_REGEX } from './address-format';

/** The BIP-44 path of deposit address `index` (TRON coin type 195, account 0, external chain). */
export const tronDepositPath = (index: number): string => `m/44'/195'/0'/0/${index}`;

/** `T...` -> `41` + 40 hex digits, lower case. @throws Error for an invalid address */
export function toHex41(base58: string): string {
  if (!isTronAddress(base58)) throw new Error(`not a TRON address: ${base58}`);
  return utils.address.toHex(base58).toLowerCase();
}

/** `41...` (42 hex digits) or a 20-byte hex account id (40 digits, as in logs) -> `T...`. */
export function fromHex(hex: string): string {
  const h = hex.replace(/^0x/, '').toLowerCase();
  return utils.address.fromHex(h.length === 40 ? `41${h}` : h);
}

/** The 20-byte account id of a `T...` address as 40 hex digits (how logs and ABI words carry it). */
export const accountId = (base58: string): string => toHex41(base58).slice(2);

/** The base58 address of a hex private key (64 digits, no 0x). */
export function addressOfKey(privateKeyHex: string): string {
  const a = utils.address.fromPrivateKey(privateKeyHex);
  if (!a) throw new Error('invalid private key');
  return a;
}

/** The private key (64 hex digits) at {@link tronDepositPath}(index) under `root`. */
export function depositKey(root: HDKey, index: number): string {
  const key = root.derive(tronDepositPath(index)).privateKey;
  if (!key) throw new Error(`no private key at index ${index}`);
  return Buffer.from(key).toString('hex');
}
