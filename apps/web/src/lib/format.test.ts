import { format } from 'date-fns';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, formatFileSize, formatShortDate, toDate } from './format';
import { formatRelative } from './format-relative';

// 2026-03-05T14:07:09Z
const MS = 1_772_719_629_000;
const SECONDS = 1_772_719_629;

describe('date formatting (product §3)', () => {
  it("formats a millisecond number as 'MMM dd, yyyy' and 'MMM dd, yyyy HH:mm'", () => {
    expect(formatDate(MS)).toBe('Mar 05, 2026');
    expect(formatDateTime(MS)).toBe('Mar 05, 2026 14:07');
  });

  it("agrees with date-fns' format for the spec's patterns across years, months, days and hours", () => {
    // A fixed pseudo-random walk over 1970-2100 (no Math.random: the test is the same every run).
    let x = 1;
    for (let i = 0; i < 2000; i++) {
      x = (x * 69069 + 1) % 4_294_967_296;
      const t = new Date(x * 955); // up to about 4.1e12 ms, the year 2100
      expect(formatDate(t)).toBe(format(t, 'MMM dd, yyyy'));
      expect(formatDateTime(t)).toBe(format(t, 'MMM dd, yyyy HH:mm'));
      expect(formatShortDate(t)).toBe(format(t, 'MM/dd/yyyy'));
    }
  });

  it('reads a digit string as a timestamp: above 1e12 milliseconds, otherwise seconds', () => {
    expect(formatDateTime(String(MS))).toBe('Mar 05, 2026 14:07');
    expect(formatDateTime(String(SECONDS))).toBe('Mar 05, 2026 14:07');
    expect(formatDateTime(SECONDS)).toBe('Mar 05, 2026 14:07');
  });

  it('reads a date string', () => {
    expect(formatDate('2026-03-05T14:07:09Z')).toBe('Mar 05, 2026');
    expect(formatDateTime('2026-03-05T14:07:09Z')).toBe('Mar 05, 2026 14:07');
  });

  it("formats 'MM/dd/yyyy' for transaction rows", () => {
    expect(formatShortDate(MS)).toBe('03/05/2026');
  });

  it('gives an empty string for invalid input', () => {
    for (const bad of ['not a date', '', '   ', null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(formatDate(bad as never)).toBe('');
      expect(formatDateTime(bad as never)).toBe('');
      expect(formatShortDate(bad as never)).toBe('');
      expect(formatRelative(bad as never)).toBe('');
    }
    expect(toDate('2026-13-45')).toBeNull();
  });

  it('formats relative time against a given now', () => {
    const now = new Date(MS);
    expect(formatRelative(MS - 3 * 60_000, now)).toBe('3 minutes ago');
    expect(formatRelative(String((MS - 2 * 86_400_000) / 1000), now)).toBe('2 days ago');
    expect(formatRelative(MS + 3_600_000, now)).toBe('in 1 hour');
    expect(formatRelative(MS - 86_400_000, now)).toBe('yesterday');
    expect(formatRelative(MS - 20_000, now)).toBe('20 seconds ago');
    expect(formatRelative(MS - 59 * 60_000, now)).toBe('59 minutes ago');
    expect(formatRelative(MS - 45 * 86_400_000, now)).toBe('last month');
    expect(formatRelative(MS - 3 * 365 * 86_400_000, now)).toBe('3 years ago');
  });
});

describe('file size formatting (product §3)', () => {
  it("gives '0 Bytes' for zero", () => {
    expect(formatFileSize(0)).toBe('0 Bytes');
  });

  it('uses base 1024 with Bytes, KB, MB, GB and TB and up to 2 decimals', () => {
    expect(formatFileSize(512)).toBe('512 Bytes');
    expect(formatFileSize(1024)).toBe('1 KB');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1_234_567)).toBe('1.18 MB');
    expect(formatFileSize(1024 ** 3)).toBe('1 GB');
    expect(formatFileSize(2.5 * 1024 ** 4)).toBe('2.5 TB');
    expect(formatFileSize(5 * 1024 ** 5)).toBe('5120 TB');
    expect(formatFileSize('2048')).toBe('2 KB');
  });

  it("gives 'Invalid file size' for negative or invalid input", () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, 'abc', '', null, undefined]) {
      expect(formatFileSize(bad as never)).toBe('Invalid file size');
    }
  });
});
