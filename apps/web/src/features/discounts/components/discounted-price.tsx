/**
 * A shareable `?code=` link on the collection page (product §28): the price with the code (list
 * price struck through, what the code takes off), or why the code does not apply. The route puts it
 * in the collection page's price slot and starts the buy dialog with the code.
 */
import { Tag } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { getErrorMessage } from '@/lib/api-client';
import { formatPointsLabel } from '@/lib/points';
import { useDiscountPreview } from '../api/discount-preview';

/** The page's `?code=` in upper case, or null when there is none or it cannot be a code (1–32 of A–Z a–z 0–9 _ -). */
export function useLinkedDiscountCode(): string | null {
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  return /^[A-Za-z0-9_-]{1,32}$/.test(code) ? code.toUpperCase() : null;
}

/** The preview of the linked code for `collectionId` (no call without a code). */
export function useLinkedDiscount(collectionId: string) {
  const code = useLinkedDiscountCode();
  return { code, preview: useDiscountPreview(collectionId, code) };
}

/**
 * The price block for the page's linked code: the discounted price when the preview of
 * `collectionId` is in, the list price (`amount`, whole points) otherwise, and the refusal's text
 * under it when the code does not apply. It reads the preview itself, so it follows the query.
 */
export function DiscountedPrice({ collectionId, amount }: { collectionId: string; amount: number }) {
  const { code, preview } = useLinkedDiscount(collectionId);
  return (
    <>
      {preview.data ? (
        <>
          <p className="flex flex-wrap items-baseline gap-x-3">
            <span className="text-3xl font-semibold text-slate-900 tabular-nums dark:text-white">
              {formatPointsLabel(preview.data.amount)}
            </span>
            <s className="text-base text-slate-500 tabular-nums dark:text-slate-400">
              <span className="sr-only">List price </span>
              {formatPointsLabel(preview.data.list_price)}
            </s>
          </p>
          <p className="mt-1 flex items-start gap-1.5 text-sm text-green-700 dark:text-green-400">
            <Tag className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            <span className="min-w-0 wrap-anywhere">
              Code {preview.data.code}: {formatPointsLabel(preview.data.discount)} off
            </span>
          </p>
        </>
      ) : (
        <p className="text-3xl font-semibold text-slate-900 tabular-nums dark:text-white">{formatPointsLabel(amount)}</p>
      )}
      {code && preview.isError ? (
        <p className="mt-1 text-sm wrap-anywhere text-amber-700 dark:text-amber-300">
          Code {code}: {getErrorMessage(preview.error, 'This code is not valid for this collection')}
        </p>
      ) : null}
    </>
  );
}
