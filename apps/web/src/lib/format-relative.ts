/**
 * Relative time of product §3 ("Formats": "relative time"), e.g. '3 minutes ago' or 'in about 1
 * hour', by date-fns. Its own module so that only the pages showing relative times (My
 * Collections' cards, the sessions list) load date-fns (docs/decisions/0044-first-screen-before-the-font.md).
 */
import { formatDistanceToNow } from 'date-fns';
import { toDate, type DateInput } from './format';

/** Relative time against `now`, e.g. '3 minutes ago' or 'in 2 days'; '' when invalid. */
export function formatRelative(value: DateInput, now: Date = new Date()): string {
  const date = toDate(value);
  if (!date) return '';
  // formatDistanceToNow has no `now` option; shift by the difference so tests can fix the clock.
  const shift = Date.now() - now.getTime();
  return formatDistanceToNow(new Date(date.getTime() + shift), { addSuffix: true });
}
