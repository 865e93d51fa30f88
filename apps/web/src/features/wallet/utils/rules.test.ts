import { describe, expect, it } from 'vitest';
import {
  cashOutAmountToSend,
  checkCashOutAmount,
  checkWithdrawCreate,
  deriveFee,
  parseDecimalInput,
  pointsPerUsd,
  topUpPoints,
  validateAddress,
  validateMemo,
  validateTopUpAmount,
} from './rules';

const TRON = '^T[1-9A-HJ-NP-Za-km-z]{33}$';

describe('top-up amount (product §5)', () => {
  it('asks for an amount when empty', () => {
    expect(validateTopUpAmount('', '1.00000000', 'USDT')).toBe('Please enter an amount.');
    expect(validateTopUpAmount('   ', '1.00000000', 'USDT')).toBe('Please enter an amount.');
  });

  it('rejects text that is not a number, 0 and negatives', () => {
    for (const input of ['abc', '1e3', '-5', '0', '0.000', '1.2.3', '+4']) {
      expect(validateTopUpAmount(input, '1.00000000', 'USDT'), input).toBe('Please enter a valid amount.');
    }
  });

  it('names the minimum in the token, without trailing zeros', () => {
    expect(validateTopUpAmount('0.5', '1.00000000', 'USDT')).toBe('Minimum amount is 1 USDT.');
    expect(validateTopUpAmount('0.00009', '0.00010000', 'BTC')).toBe('Minimum amount is 0.0001 BTC.');
  });

  it('accepts the minimum itself and more', () => {
    expect(validateTopUpAmount('1', '1.00000000', 'USDT')).toBeNull();
    expect(validateTopUpAmount('25', '1.00000000', 'USDT')).toBeNull();
    expect(validateTopUpAmount('.5', undefined, 'USDT')).toBeNull();
  });

  it('gives points = amount x min points / min crypto, 2 decimals rounded down', () => {
    const usdt = { min_amount: '100.00', currency_min_amount: '1.00000000' };
    expect(topUpPoints('25', usdt)).toBe('2500.00');
    expect(topUpPoints('0.123456', usdt)).toBe('12.34');
    const btc = { min_amount: '600.00', currency_min_amount: '0.00010000' };
    expect(topUpPoints('0.00012345', btc)).toBe('740.70');
    expect(topUpPoints(null, usdt)).toBe('0.00');
    expect(topUpPoints('5', undefined)).toBe('0.00');
    expect(topUpPoints('5', { min_amount: '100', currency_min_amount: '0' })).toBe('0.00');
  });

  it('parses only plain decimals', () => {
    expect(parseDecimalInput('12.50')).toBe('12.5');
    expect(parseDecimalInput('.5')).toBe('0.5');
    expect(parseDecimalInput('5.')).toBe('5');
    expect(parseDecimalInput('1,5')).toBeNull();
    expect(parseDecimalInput('Infinity')).toBeNull();
  });
});

describe('cash-out amount (product §5)', () => {
  const opts = { rate: '100', available: '1500.00', minUsd: '10.00' };

  it('says Insufficient balance when amount x rate is above the available points', () => {
    expect(checkCashOutAmount('15.01', opts)).toMatchObject({ error: 'Insufficient balance', ok: false });
    expect(checkCashOutAmount('15', opts)).toMatchObject({ error: null, ok: true, amount: '15' });
  });

  it('names the minimum in USD when above 0 but below it', () => {
    expect(checkCashOutAmount('9.99', opts)).toMatchObject({ error: 'Minimum amount is 10 USD', ok: false });
    expect(checkCashOutAmount('10', opts)).toMatchObject({ error: null, ok: true });
  });

  it('quotes a large minimum with thousands separators, the text otherwise verbatim', () => {
    const big = { rate: '100', available: '1000000.00', minUsd: '2500.00' };
    expect(checkCashOutAmount('2499', big)).toMatchObject({ error: 'Minimum amount is 2,500 USD', ok: false });
    expect(checkWithdrawCreate(TRON, '9', '2500.00')).toBe('Invalid amount or address. Minimum amount is 2,500');
  });

  it('shows nothing for an empty field or 0, and is not ok', () => {
    expect(checkCashOutAmount('', opts)).toEqual({ error: null, ok: false, amount: null });
    expect(checkCashOutAmount('0', opts)).toMatchObject({ error: null, ok: false });
  });

  it('is not ok while the rate is unknown (the modal reloads it)', () => {
    expect(checkCashOutAmount('12', { ...opts, rate: null })).toMatchObject({ error: null, ok: false, amount: '12' });
  });

  it('takes the rate from min points / fiat-equivalent minimum, 100 by default', () => {
    expect(pointsPerUsd({ min_amount: '100.00', fiat_equivalent: '1.00' })).toBe('100');
    expect(pointsPerUsd({ min_amount: '600.00', fiat_equivalent: '6.00' })).toBe('100');
    expect(pointsPerUsd({ min_amount: '250.00', fiat_equivalent: '2.00' })).toBe('125');
    expect(pointsPerUsd({ min_amount: '0', fiat_equivalent: '0' })).toBe('100');
    expect(pointsPerUsd(undefined)).toBeNull();
  });

  it('sends amount x rate rounded down to 8 decimals', () => {
    expect(cashOutAmountToSend('10', '100')).toBe('1000.00000000');
    expect(cashOutAmountToSend('10.123456789', '1')).toBe('10.12345678');
    expect(cashOutAmountToSend('1', '33.333333333')).toBe('33.33333333');
  });

  it('refuses to create without address or below the minimum', () => {
    expect(checkWithdrawCreate('', '20', '10.00')).toBe('Invalid amount or address. Minimum amount is 10');
    expect(checkWithdrawCreate(TRON, '9', '10.00')).toBe('Invalid amount or address. Minimum amount is 10');
    expect(checkWithdrawCreate(TRON, null, '10.00')).toBe('Invalid amount or address. Minimum amount is 10');
    expect(checkWithdrawCreate(TRON, '10', '10.00')).toBeNull();
  });

  it('derives fee in USD, fee in points and net points', () => {
    expect(deriveFee({ amount: '1000.00', fee: '1.00000000', fiat_equivalent: '1.00' }, '100')).toEqual({
      feeUsd: '1.00',
      feePoints: '100.00',
      netPoints: '900.00',
    });
    expect(deriveFee({ amount: '50.00', fee: '1', fiat_equivalent: '5.00' }, '100').netPoints).toBe('0.00');
  });
});

describe('address and memo (product §5)', () => {
  it('requires an address and matches wallet_regex', () => {
    expect(validateAddress('', TRON)).toBe('Address required');
    expect(validateAddress('  ', TRON)).toBe('Address required');
    expect(validateAddress('0x123', TRON)).toBe('Invalid address format');
    expect(validateAddress('TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC', TRON)).toBeNull();
  });

  it('treats a broken or missing pattern as valid', () => {
    expect(validateAddress('anything', '([unclosed')).toBeNull();
    expect(validateAddress('anything', '')).toBeNull();
    expect(validateAddress('anything', null)).toBeNull();
  });

  it('requires a memo and matches extra_id_regex', () => {
    expect(validateMemo('', '^[0-9]{1,10}$')).toBe('Memo required');
    expect(validateMemo('abc', '^[0-9]{1,10}$')).toBe('Invalid memo format');
    expect(validateMemo('12345', '^[0-9]{1,10}$')).toBeNull();
    expect(validateMemo('abc', '(')).toBeNull();
  });
});
