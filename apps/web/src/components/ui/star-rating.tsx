/**
 * Stars (product §29): `RatingSummary` shows a collection's average (one decimal, from the integer
 * rating_sum and rating_count) with its review count; `StarInput` picks 1-5 stars as a radio group
 * (arrow keys move, every star has a label). Shared: the collection cards and pages show ratings,
 * the reviews feature also picks them.
 */
import { ratingAverage } from '@coffer/contract/constants';
import { Star } from 'lucide-react';
import { useId } from 'react';
import { cn } from '@/lib/cn';

/** Filled stars out of 5 for `value` (4.8 shows 5, 4.5 shows 4; decorative: the caller gives the text). */
export function Stars({ value, className }: { value: number; className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-0.5', className)} aria-hidden="true">
      {[1, 2, 3, 4, 5].map((i) => (
        <Star
          key={i}
          className={cn(
            'size-4',
            i <= value + 0.25 ? 'fill-amber-400 text-amber-400' : 'fill-transparent text-slate-300 dark:text-slate-600',
          )}
        />
      ))}
    </span>
  );
}

export const reviewCountLabel = (n: number) => `${n} review${n === 1 ? '' : 's'}`;

/** The average and the count, e.g. '★★★★☆ 4.3 (12 reviews)'; 'No reviews yet' without any. */
export function RatingSummary({
  sum,
  count,
  compact,
  className,
}: {
  sum: number;
  count: number;
  compact?: boolean;
  className?: string;
}) {
  const avg = ratingAverage(sum, count);
  if (!avg) {
    return compact ? null : <span className={cn('text-sm text-slate-500 dark:text-slate-400', className)}>No reviews yet</span>;
  }
  return (
    <span
      role="img"
      className={cn('inline-flex items-center gap-1.5 text-sm text-slate-600 dark:text-slate-400', className)}
      aria-label={`Rated ${avg} out of 5, ${reviewCountLabel(count)}`}
    >
      {compact ? <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" /> : <Stars value={Number(avg)} />}
      <span aria-hidden="true" className="font-medium text-slate-900 tabular-nums dark:text-white">
        {avg}
      </span>
      <span aria-hidden="true" className="tabular-nums">
        ({compact ? count : reviewCountLabel(count)})
      </span>
    </span>
  );
}

/** 1-5 stars as radio buttons. */
export function StarInput({
  value,
  onChange,
  label = 'Rating',
}: {
  value: number;
  onChange: (v: number) => void;
  label?: string;
}) {
  const name = useId();
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-300">{label}</legend>
      <div className="flex items-center gap-1">
        {[1, 2, 3, 4, 5].map((i) => (
          <label
            key={i}
            className="cursor-pointer rounded-md p-0.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500"
          >
            <input
              type="radio"
              name={name}
              value={i}
              checked={value === i}
              onChange={() => onChange(i)}
              className="sr-only"
              aria-label={`${i} star${i === 1 ? '' : 's'}`}
            />
            <Star
              aria-hidden="true"
              className={cn(
                'size-7 transition-colors',
                i <= value
                  ? 'fill-amber-400 text-amber-400'
                  : 'fill-transparent text-slate-300 hover:text-amber-300 dark:text-slate-600',
              )}
            />
          </label>
        ))}
      </div>
    </fieldset>
  );
}
