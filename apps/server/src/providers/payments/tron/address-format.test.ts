/**
 * tron/address-format.ts checks TRON addresses without tronweb; tronweb's own check
 * (`utils.crypto.isAddressValid`) is the oracle: both must agree on keys' addresses, on every
 * one-character change of them, and on hex, short and foreign inputs.
 */
import { randomBytes } from 'node:crypto';
import utils from 'tronweb/utils';
import { describe, expect, it } from 'vitest';
import { addressOfKey } from './address';
import { isTronAddress } from './address-format';

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

describe('isTronAddress', () => {
  it('agrees with tronweb on 50 addresses of random keys and on every one-character change of them', () => {
    let changed = 0;
    for (let i = 0; i < 50; i++) {
      const address = addressOfKey(randomBytes(32).toString('hex'));
      expect(isTronAddress(address)).toBe(true);
      const at = 1 + (i % 33);
      const swap = ALPHABET[(ALPHABET.indexOf(address[at]!) + 1 + i) % ALPHABET.length]!;
      const mutated = address.slice(0, at) + swap + address.slice(at + 1);
      expect(isTronAddress(mutated)).toBe(utils.crypto.isAddressValid(mutated));
      if (!isTronAddress(mutated)) changed++;
    }
    // A changed character breaks the 4-byte checksum (all but about 1 in 4 billion).
    expect(changed).toBe(50);
  });

  it('refuses what is not a base58 TRON address, as tronweb does for the base58 ones', () => {
    const hex41 = utils.address.toHex(addressOfKey(randomBytes(32).toString('hex')));
    const bitcoin = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT';
    for (const value of ['', 'T', hex41, `0x${hex41.slice(2)}`, bitcoin, 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6tt']) {
      expect(isTronAddress(value)).toBe(false);
    }
    expect(utils.crypto.isAddressValid(bitcoin)).toBe(false);
    // USDT's contract on mainnet (a real address).
    expect(isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(utils.crypto.isAddressValid('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
  });
});
