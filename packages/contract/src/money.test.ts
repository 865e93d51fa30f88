import { describe, expect, it } from 'vitest';
import {
  formatAmount,
  fromUnits,
  groupThousands,
  minorToPoints,
  pointsToMinor,
  pointsToUsd,
  roundDown,
  toUnits,
  usdToPoints,
  wholePointsToMinor,
} from './money';

describe('money', () => {
  it('parses decimal strings into bigint units', () => {
    expect(pointsToMinor('12.34')).toBe(1234n);
    expect(pointsToMinor('12')).toBe(1200n);
    expect(pointsToMinor('0.5')).toBe(50n);
    expect(toUnits('1.000001', 6)).toBe(1_000_001n);
  });

  it('turns whole points into minor units and refuses fractions', () => {
    expect(wholePointsToMinor(250)).toBe(25_000n);
    expect(wholePointsToMinor(10_000_000n)).toBe(1_000_000_000n);
    expect(() => wholePointsToMinor(1.5)).toThrow(RangeError);
    expect(() => wholePointsToMinor(Number.NaN)).toThrow(RangeError);
  });

  it('refuses too many decimals, signs, exponents and floats', () => {
    expect(() => pointsToMinor('1.234')).toThrow(RangeError);
    expect(() => pointsToMinor('-1')).toThrow(RangeError);
    expect(() => pointsToMinor('1e3')).toThrow(RangeError);
    expect(() => pointsToMinor(1 as unknown as string)).toThrow(RangeError);
  });

  it('formats units with exactly the given decimals', () => {
    expect(minorToPoints(1234n)).toBe('12.34');
    expect(minorToPoints(5n)).toBe('0.05');
    expect(minorToPoints(-5n)).toBe('-0.05');
    expect(fromUnits(1n, 8)).toBe('0.00000001');
  });

  it('rounds crypto down to 8 decimals (product §5)', () => {
    expect(roundDown('0.123456789', 8)).toBe('0.12345678');
    expect(roundDown('1', 8)).toBe('1.00000000');
  });

  it('converts USD and points at a rate without float error', () => {
    expect(usdToPoints('0.1', '100')).toBe('10.00');
    expect(usdToPoints('10.005', '100')).toBe('1000.50');
    expect(pointsToUsd('1000', '100')).toBe('10.00');
    expect(pointsToUsd('0.29', '100')).toBe('0.00');
  });
});

describe('formatAmount (one way of writing amounts)', () => {
  it('groups thousands and shows 2 decimals by default, with the unit word after', () => {
    expect(formatAmount('2500', { unit: 'P-coin' })).toBe('2,500.00 P-coin');
    expect(formatAmount('1234567.891')).toBe('1,234,567.89');
    expect(formatAmount(10_000_000, { unit: 'points' })).toBe('10,000,000.00 points');
    expect(formatAmount('0.005')).toBe('0.01');
  });

  it("'auto' shows whole numbers without decimals and others with 2 (product §2 'N Points')", () => {
    expect(formatAmount(1500, { unit: 'Points', decimals: 'auto' })).toBe('1,500 Points');
    expect(formatAmount('12.5', { unit: 'Points', decimals: 'auto' })).toBe('12.50 Points');
    expect(formatAmount('100000000.00', { decimals: 'auto' })).toBe('100,000,000');
  });

  it('keeps the sign in front of the separators', () => {
    expect(formatAmount('-1234.5', { unit: 'Points', decimals: 'auto' })).toBe('-1,234.50 Points');
    expect(formatAmount('-0.001')).toBe('0.00');
  });

  it('shows an unreadable value as zero in the same format, or as the fallback given', () => {
    for (const bad of [null, undefined, '', 'abc', '1e3', Number.NaN, Number.POSITIVE_INFINITY, {}]) {
      expect(formatAmount(bad, { unit: 'Points', decimals: 'auto' })).toBe('0 Points');
      expect(formatAmount(bad)).toBe('0.00');
      expect(formatAmount(bad, { fallback: '-' })).toBe('-');
    }
  });

  it('groups only the whole part of a fixed-point string', () => {
    expect(groupThousands('1234567.891')).toBe('1,234,567.891');
    expect(groupThousands('-1000')).toBe('-1,000');
    expect(groupThousands('0.00001')).toBe('0.00001');
  });
});
