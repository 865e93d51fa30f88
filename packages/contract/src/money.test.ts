import { describe, expect, it } from 'vitest';
import { fromUnits, minorToPoints, pointsToMinor, pointsToUsd, roundDown, toUnits, usdToPoints } from './money';

describe('money', () => {
  it('parses decimal strings into bigint units', () => {
    expect(pointsToMinor('12.34')).toBe(1234n);
    expect(pointsToMinor('12')).toBe(1200n);
    expect(pointsToMinor('0.5')).toBe(50n);
    expect(toUnits('1.000001', 6)).toBe(1_000_001n);
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
