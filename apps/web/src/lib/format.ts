/**
 * Display formatting of product §3 ("Formats") and product §9 ("Timestamps", "File size base"); points
 * are formatted in points.ts, relative time in format-relative.ts (Intl.RelativeTimeFormat).
 *
 * The fixed patterns ('MMM dd, yyyy', 'MMM dd, yyyy HH:mm', 'MM/dd/yyyy', in the reader's time zone)
 * take the month's English abbreviation from the browser's Intl (en-US) and the numbers from the
 * Date itself, so the collection page's first screen carries no date library.
 *
 * Date inputs may be a number, a digit string or a date string. Numbers and digit strings above
 * 1e12 are milliseconds, otherwise seconds. Anything that does not give a valid date formats as ''.
 */
import { FILE_SIZE_BASE, MS_TIMESTAMP_THRESHOLD } from '@coffer/contract/constants';

export type DateInput = number | string | Date | null | undefined;

/**
 * Turns a timestamp or date string into a Date.
 * @returns null when the input is missing or not a valid date
 */
export function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined) return null;
  let date: Date;
  if (value instanceof Date) {
    date = new Date(value.getTime());
  } else if (typeof value === 'number' || /^\s*\d+(\.\d+)?\s*$/.test(value)) {
    const n = typeof value === 'number' ? value : Number(value);
    if (!Number.isFinite(n)) return null;
    date = new Date(n > MS_TIMESTAMP_THRESHOLD ? n : n * 1000);
  } else {
    if (value.trim() === '') return null;
    date = new Date(value);
  }
  return Number.isNaN(date.getTime()) ? null : date;
}

/** 'Mar' for March: the en-US short month ('MMM'). */
const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short' });
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** The date's fields in the reader's time zone, or null when the input is not a valid date. */
function fields(value: DateInput) {
  const date = toDate(value);
  if (!date) return null;
  return {
    MMM: MONTH.format(date),
    MM: pad(date.getMonth() + 1),
    dd: pad(date.getDate()),
    yyyy: pad(date.getFullYear(), 4),
    HH: pad(date.getHours()),
    mm: pad(date.getMinutes()),
  };
}

/** 'MMM dd, yyyy', e.g. 'Mar 05, 2026'; '' when invalid. */
export function formatDate(value: DateInput): string {
  const f = fields(value);
  return f ? `${f.MMM} ${f.dd}, ${f.yyyy}` : '';
}

/** 'MMM dd, yyyy HH:mm', e.g. 'Mar 05, 2026 14:07'; '' when invalid. */
export function formatDateTime(value: DateInput): string {
  const f = fields(value);
  return f ? `${f.MMM} ${f.dd}, ${f.yyyy} ${f.HH}:${f.mm}` : '';
}

/** 'MM/dd/yyyy' (transaction rows, product §2 balance modal); '' when invalid. */
export function formatShortDate(value: DateInput): string {
  const f = fields(value);
  return f ? `${f.MM}/${f.dd}/${f.yyyy}` : '';
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/**
 * File size with base 1024 and up to 2 decimals (trailing zeros dropped): 1536 -> '1.5 KB'.
 * @returns '0 Bytes' for 0; 'Invalid file size' for negative, non-finite or non-numeric input
 */
export function formatFileSize(bytes: number | string | null | undefined): string {
  const n = typeof bytes === 'string' && bytes.trim() !== '' ? Number(bytes) : bytes;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return 'Invalid file size';
  if (n === 0) return '0 Bytes';
  const i = Math.min(SIZE_UNITS.length - 1, Math.max(0, Math.floor(Math.log(n) / Math.log(FILE_SIZE_BASE))));
  const value = n / FILE_SIZE_BASE ** i;
  return `${parseFloat(value.toFixed(2))} ${SIZE_UNITS[i]}`;
}
