/**
 * Relative time of product §3 ("Formats": "relative time"), e.g. '3 minutes ago', 'yesterday' or
 * 'in 2 hours', by the platform's `Intl.RelativeTimeFormat` (en-US, `numeric: 'auto'`). It replaced
 * date-fns' `formatDistanceToNow`, whose 6 kB (br) sat on My Collections' first screen
 * (`bench:web`, docs/web.md "First screens").
 *
 * The unit is the largest that fits (seconds under a minute, minutes under an hour, hours under a
 * day, days under 30, months under 12, then years), the count rounded to the nearest whole unit.
 */
import { toDate, type DateInput } from './format';

const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });

/** [unit, its length in ms, the count of it from which the next unit is used]. */
const UNITS: [Intl.RelativeTimeFormatUnit, number, number][] = [
  ['second', 1_000, 60],
  ['minute', 60_000, 60],
  ['hour', 3_600_000, 24],
  ['day', 86_400_000, 30],
  ['month', 2_629_800_000, 12],
  ['year', 31_557_600_000, Infinity],
];

/** Relative time against `now`, e.g. '3 minutes ago' or 'in 2 days'; '' when invalid. */
export function formatRelative(value: DateInput, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  const ms = date.getTime() - now.getTime();
  for (const [unit, size, next] of UNITS) {
    const count = Math.round(ms / size);
    if (Math.abs(count) < next) return relative.format(count, unit);
  }
  return '';
}
