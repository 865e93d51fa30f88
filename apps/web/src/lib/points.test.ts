import { describe, expect, it } from 'vitest';
import { formatAmount, formatPoints, formatPointsLabel, groupThousands } from './points';

describe('points formatting (product §9, 2 decimals)', () => {
  it('shows two decimals with thousands separators, from decimal strings', () => {
    expect(formatPoints('12.5')).toBe('12.50');
    expect(formatPoints('1234567.891')).toBe('1,234,567.89');
    expect(formatPoints('0')).toBe('0.00');
    expect(formatPoints(undefined)).toBe('0.00');
    expect(formatPoints('junk')).toBe('0.00');
  });

  it('keeps the sign of a negative amount in front of the separators', () => {
    expect(formatPoints('-1234.5')).toBe('-1,234.50');
  });
});

describe("'N Points' labels (product §2)", () => {
  it('shows whole numbers as they are and others with 2 decimals', () => {
    expect(formatPointsLabel(12)).toBe('12 Points');
    expect(formatPointsLabel(12.5)).toBe('12.50 Points');
    expect(formatPointsLabel('7')).toBe('7 Points');
    // The same thousands separators as every other amount (one formatter): never '1500 Points' beside '2,500.00 P-coin'.
    expect(formatPointsLabel(1500)).toBe('1,500 Points');
    expect(formatPointsLabel('1234567.5')).toBe('1,234,567.50 Points');
  });

  it('groups thousands like every other amount', () => {
    expect(formatPointsLabel(1500)).toBe('1,500 Points');
    expect(formatPointsLabel('1234567.5')).toBe('1,234,567.50 Points');
  });

  it('writes a net below zero with its sign through formatAmount', () => {
    expect(formatAmount(-1500, { unit: 'Points', decimals: 'auto' })).toBe('-1,500 Points');
  });

  it("reads a bad value as '0 Points'", () => {
    for (const bad of [Number.NaN, -3, '-3', 'abc', null, undefined]) expect(formatPointsLabel(bad)).toBe('0 Points');
  });
});

describe('formatAmount with a unit word', () => {
  it("writes the wallet's P-coin and the top-up's points with separators and 2 decimals", () => {
    expect(formatAmount('2500', { unit: 'P-coin' })).toBe('2,500.00 P-coin');
    expect(formatAmount('10000000', { unit: 'points' })).toBe('10,000,000.00 points');
  });
});

describe('thousands separators', () => {
  it('groups the whole part only and keeps the sign and the fraction', () => {
    expect(groupThousands('1234567.891')).toBe('1,234,567.891');
    expect(groupThousands('-1000')).toBe('-1,000');
    expect(groupThousands('999.5')).toBe('999.5');
  });
});
