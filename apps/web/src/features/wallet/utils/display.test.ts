import { describe, expect, it } from 'vitest';
import {
  currencyLabel,
  depositPhase,
  depositStatusView,
  formatCountdown,
  formatCrypto,
  formatUsd,
  netUsd,
  networkLabel,
  recordStatusView,
  secondsLeft,
  signedAmount,
  withdrawStatusView,
} from './display';

describe('deposit countdown (product §4)', () => {
  it('shows mm:ss up to an hour', () => {
    expect(formatCountdown(1800)).toBe('30:00');
    expect(formatCountdown(1799)).toBe('29:59');
    expect(formatCountdown(61)).toBe('01:01');
    expect(formatCountdown(5)).toBe('00:05');
    expect(formatCountdown(3600)).toBe('60:00');
  });

  it('shows hh:mm:ss above an hour', () => {
    expect(formatCountdown(3601)).toBe('01:00:01');
    expect(formatCountdown(7325)).toBe('02:02:05');
  });

  it('never goes below 0', () => {
    expect(formatCountdown(-5)).toBe('00:00');
    expect(formatCountdown(Number.NaN)).toBe('00:00');
  });

  it('counts 1800 s from creation, whole seconds, never below 0', () => {
    const created = 1_767_225_600_000;
    expect(secondsLeft(String(created), created)).toBe(1800);
    expect(secondsLeft(String(created), created + 999)).toBe(1800);
    expect(secondsLeft(String(created), created + 1000)).toBe(1799);
    expect(secondsLeft(created, created + 1_799_000)).toBe(1);
    expect(secondsLeft(created, created + 5_000_000)).toBe(0);
    // seconds timestamps (<= 1e12) are read as seconds
    expect(secondsLeft(created / 1000, created + 60_000)).toBe(1740);
    expect(secondsLeft('not a date', created)).toBe(0);
  });

  it('is not capped at 30:00: a clock behind the server counts from creation as the rule reads, hh:mm:ss above an hour', () => {
    const created = 1_767_225_600_000;
    // The device's clock runs 45 minutes behind: 1800 s + 2700 s left by its clock.
    const left = secondsLeft(created, created - 2_700_000);
    expect(left).toBe(4500);
    expect(formatCountdown(left)).toBe('01:15:00');
    expect(formatCountdown(secondsLeft(created, created - 600_000))).toBe('40:00');
  });
});

describe('signed amounts and badges', () => {
  it('puts + before Incoming and - before Outgoing amounts', () => {
    expect(signedAmount('Incoming', '2500')).toBe('+2,500.00');
    expect(signedAmount('Outgoing', '1000.5')).toBe('-1,000.50');
    expect(signedAmount('Outgoing', '-3')).toBe('-3.00');
  });

  it('labels record statuses, Pending for unknown ones', () => {
    expect(recordStatusView('RecordStatusSuccess')).toEqual({ label: 'Success', tone: 'green' });
    expect(recordStatusView('RecordStatusFailure')).toEqual({ label: 'Failed', tone: 'red' });
    expect(recordStatusView('RecordStatusRefunded')).toEqual({ label: 'Refunded', tone: 'blue' });
    expect(recordStatusView('RecordStatusPending')).toEqual({ label: 'Pending', tone: 'amber' });
    expect(recordStatusView('Whatever')).toEqual({ label: 'Pending', tone: 'amber' });
    expect(recordStatusView(undefined)).toEqual({ label: 'Pending', tone: 'amber' });
  });

  it('reads deposit statuses: success, processing (also missing or "Processing"), anything else expired', () => {
    expect(depositPhase('DepositStatusSuccess')).toBe('success');
    expect(depositPhase('DepositStatusProcessing')).toBe('processing');
    expect(depositPhase('Processing')).toBe('processing');
    expect(depositPhase(undefined)).toBe('processing');
    expect(depositPhase('DepositStatusExpired')).toBe('failed');
    expect(depositStatusView('DepositStatusExpired').label).toBe('Order Expired');
  });

  it('reads names of Object.prototype as unknown statuses: Pending, Order Expired, Processing (product §4)', () => {
    for (const odd of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(recordStatusView(odd), odd).toEqual({ label: 'Pending', tone: 'amber' });
      // product §4: a deposit status other than success or processing is failed ('Order Expired').
      expect(depositPhase(odd), odd).toBe('failed');
      expect(depositStatusView(odd), odd).toEqual({ label: 'Order Expired', tone: 'red' });
      expect(withdrawStatusView(odd), odd).toEqual({ label: 'Processing', tone: 'amber' });
    }
  });

  it('reads withdraw statuses: Completed, Failed (failure and refunded), Processing otherwise', () => {
    expect(withdrawStatusView('WithdrawStatusSuccess').label).toBe('Completed');
    expect(withdrawStatusView('WithdrawStatusFailure').label).toBe('Failed');
    expect(withdrawStatusView('WithdrawStatusRefunded').label).toBe('Failed');
    expect(withdrawStatusView('WithdrawStatusPending').label).toBe('Processing');
    expect(withdrawStatusView(undefined).label).toBe('Processing');
  });
});

describe('names and numbers', () => {
  it('shows networks upper-case and USDT codes as USDT(network)', () => {
    expect(networkLabel('trx')).toBe('TRX');
    expect(currencyLabel({ symbol: 'USDT', network: 'bsc' })).toBe('USDT(BSC)');
    expect(currencyLabel({ code: 'usdttrc20', network: 'TRX' })).toBe('USDT(TRX)');
    expect(currencyLabel({ symbol: 'btc', network: 'BTC' })).toBe('BTC');
  });

  it('formats USD with 2 decimals and crypto with 8 (rounded down)', () => {
    expect(formatUsd('1234.5')).toBe('1,234.50');
    expect(formatUsd(undefined)).toBe('-');
    expect(formatCrypto('25')).toBe('25.00000000');
    expect(formatCrypto('0.123456789')).toBe('0.12345678');
    expect(formatCrypto('x')).toBe('-');
    expect(formatCrypto('12345.5')).toBe('12,345.50000000');
  });

  it('gives net USD = amount_usd - fee_fiat, or a dash when either is missing', () => {
    expect(netUsd('10.00', '1.00')).toBe('9.00');
    expect(netUsd('10.00', '')).toBe('-');
    expect(netUsd(undefined, '1.00')).toBe('-');
  });
});
