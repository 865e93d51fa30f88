/**
 * The `evm` rail's reserve reads (proof of liabilities, product §22): `reserveBalances` answers the
 * token's `balanceOf` at each address on a local ganache chain, in whole units, and names what it
 * cannot read (unknown currency, a currency on another network) instead of throwing.
 */
import { randomInt } from 'node:crypto';
import { parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../db/client';
import { loadConfig } from '../../../env';
import { ManualClock } from '../../../lib/clock';
import { startTestChain, type TestChain } from '../../../test/chain/chain';
import { createPaymentProvider } from '../index';
import { tokenCode } from './config';

let chain: TestChain;
let database: Database;

beforeAll(async () => {
  chain = await startTestChain(randomInt(100_000, 2_000_000_000));
  database = await openDatabase('memory://', '/tmp');
});
afterAll(async () => {
  await database.close();
  await chain.close();
});

describe('evm reserveBalances', () => {
  it('reads the token balance of each reserve address and names the ones it cannot read', async () => {
    const config = loadConfig({
      PAYMENTS: 'evm',
      EVM_NETWORKS: JSON.stringify([
        {
          name: 'ETH',
          chainId: chain.chainId,
          rpcUrl: chain.rpcUrl,
          nativeSymbol: 'ETH',
          nativeUsdPrice: '3000',
          tokens: [{ symbol: 'USDT', address: chain.token, decimals: 6 }],
        },
      ]),
      EVM_SEED: 'test test test test test test test test test test test junk',
    });
    const provider = await createPaymentProvider(config, { db: database.db, clock: new ManualClock() });
    const code = tokenCode('ETH', 'USDT');
    const held = privateKeyToAccount(generatePrivateKey()).address;
    const empty = privateKeyToAccount(generatePrivateKey()).address;
    await chain.mint(held, parseUnits('1234.5', 6));

    const readings = await provider.reserveBalances!([
      { network: 'ETH', currency: code, address: held },
      { network: 'ETH', currency: code, address: empty.toLowerCase() },
      { network: 'ETH', currency: 'nosuch', address: held },
      { network: 'BSC', currency: code, address: held },
    ]);
    expect(readings).toEqual([
      { balance: '1234.5' },
      { balance: '0' },
      { error: expect.stringContaining('nosuch') },
      { error: expect.stringContaining('BSC') },
    ]);
    expect(await provider.priceUsd(code)).toBe('1');
  }, 120_000);
});
