/**
 * The composite provider (docs/decisions/0052-composite-payment-provider.md): two in-memory rails
 * behind one provider, routed by currency code.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../env';
import { createCompositeProvider } from './composite';
import type { PaymentProvider, PayoutOutcome, ProviderCurrency } from './types';

function rail(name: string, codes: string[], limit: number) {
  const calls: string[] = [];
  const paid = new Map<string, PayoutOutcome>();
  let inFlight = 0;
  let most = 0;
  const currency = (code: string): ProviderCurrency => ({
    code,
    symbol: 'USDT',
    name: code,
    network: name.toUpperCase(),
    logoUrl: '/static/currencies/usdt.svg',
    walletRegex: '.*',
    extraIdExists: false,
    extraIdRegex: null,
    payoutMinUsd: '10',
    payout: true,
  });
  const provider: PaymentProvider = {
    name,
    sandbox: false,
    maxPayoutConcurrency: limit,
    listCurrencies: async () => codes.map(currency),
    priceUsd: async (code) => (calls.push(`price:${code}`), '1'),
    minDeposit: async () => '1',
    createDeposit: async ({ billId }) => (calls.push(`deposit:${billId}`), { address: `${name}-${billId}`, extraId: null, providerRef: null }),
    estimatePayoutFee: async () => ({ fee: '1', feeUsd: '1.00' }),
    async sendPayout(r) {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      const outcome: PayoutOutcome = { status: 'pending', txid: `${name}:${r.payoutId}` };
      paid.set(r.payoutId, outcome);
      return outcome;
    },
    payoutStatus: async (id) => paid.get(id) ?? { status: 'unknown' },
    reserveBalances: async (addresses) => addresses.map(() => ({ balance: name })),
    attach: () => ({ workers: [{ name: `${name}-watcher`, intervalMs: 1000, tick: async () => null }] }),
  };
  return { provider, calls, most: () => most };
}

describe('the composite provider', () => {
  it('routes each call to the rail that lists the currency, and lists the union', async () => {
    const evm = rail('evm', ['usdterc20', 'usdtbsc'], 1);
    const tron = rail('tron', ['usdttrc20'], 8);
    const p = createCompositeProvider([evm.provider, tron.provider]);
    expect(p.name).toBe('evm,tron');
    expect(p.rails).toEqual(['evm', 'tron']);
    expect((await p.listCurrencies()).map((c) => c.code)).toEqual(['usdterc20', 'usdtbsc', 'usdttrc20']);
    expect(p.railOf!('usdttrc20')).toBe('tron');
    expect((await p.createDeposit({ billId: 'b1', code: 'usdttrc20', currencyAmount: '5', expiresAt: 0 })).address).toBe('tron-b1');
    expect(tron.calls).toEqual(['deposit:b1']);
    expect(evm.calls).toEqual([]);
    await expect(p.priceUsd('btc')).rejects.toThrow(/no rail lists the currency btc/);
    const reading = await p.reserveBalances!([
      { network: 'TRON', currency: 'usdttrc20', address: 'T1' },
      { network: 'EVM', currency: 'usdterc20', address: '0x1' },
      { network: 'ETH', currency: 'usdttrc20', address: 'x' },
    ]);
    expect(reading).toEqual([{ balance: 'tron' }, { balance: 'evm' }, { error: 'no rail lists usdttrc20 on ETH' }]);
    expect(p.attach!({ credit: async () => null }).workers!.map((w) => w.name)).toEqual(['evm-watcher', 'tron-watcher']);
  });

  it('holds each rail to its own payout concurrency and finds a payout on the rail that knows it', async () => {
    const evm = rail('evm', ['usdterc20'], 1);
    const tron = rail('tron', ['usdttrc20'], 3);
    const p = createCompositeProvider([evm.provider, tron.provider]);
    expect(p.maxPayoutConcurrency).toBe(4);
    const send = (id: string, currency: string) => p.sendPayout({ payoutId: id, currency, network: 'X', address: 'a', memo: '', currencyAmount: '1' });
    await Promise.all([...Array(6).keys()].flatMap((i) => [send(`e${i}`, 'usdterc20'), send(`t${i}`, 'usdttrc20')]));
    expect(evm.most()).toBe(1);
    expect(tron.most()).toBe(3);
    expect(await p.payoutStatus('t2')).toEqual({ status: 'pending', txid: 'tron:t2' });
    expect(await p.payoutStatus('nobody')).toEqual({ status: 'unknown' });
  });

  it('refuses the sandbox among real rails, in the configuration and in the composite', () => {
    expect(() => loadConfig({ PAYMENTS: 'sandbox,evm' })).toThrow(/sandbox cannot be combined/);
    expect(() => loadConfig({ PAYMENTS: 'evm,evm' })).toThrow(/names a rail twice/);
    expect(() => loadConfig({ PAYMENTS: 'btc' })).toThrow(/unknown rail "btc"/);
    // ton is a rail: it asks for its own settings.
    expect(() => loadConfig({ PAYMENTS: 'evm,ton', EVM_NETWORKS: '[]' })).toThrow(/TON_HOT_WALLET_MNEMONIC/);
    expect(() => createCompositeProvider([{ ...rail('evm', [], 1).provider, sandbox: true }])).toThrow(/sandbox/);
  });
});
