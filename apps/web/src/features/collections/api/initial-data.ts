/**
 * The answers the server put in the document for the first screen (apps/server/src/plugins/web-document.ts:
 * `<script type="application/json" id="coffer-initial-data">[{call, body, data}]</script>`), seeded into
 * the query cache before the first render, under the keys the pages ask with: the storefront's default
 * first page (`market/collections`), a collection as a visitor sees it (`collection/detail`) and its
 * first page of reviews (`review/list`, docs/decisions/0044-first-screen-before-the-font.md).
 * The page then renders its data (and its banner, already preloaded) without waiting for a call
 * (issue 16, docs/decisions/0035-first-screen-in-the-document.md). Anything unexpected is ignored:
 * the page then calls as before.
 */
import { MarketSort } from '@coffer/contract/constants';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { collectionKeys } from '@/lib/market-keys';

/** The element id the server writes the answers under. */
export const INITIAL_DATA_ELEMENT_ID = 'coffer-initial-data';

interface InitialCall {
  call: string;
  body: Record<string, unknown>;
  data: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The query key a page reads the answer of `call` with `body` under, or null for a call no page seeds. */
export function initialDataKey({ call, body }: InitialCall): QueryKey | null {
  if (call === 'marketCollections' && isRecord(body.paginator)) {
    const { page, size } = body.paginator;
    const sort = body.sort ?? MarketSort.Newest;
    if (typeof page !== 'number' || typeof size !== 'number' || typeof sort !== 'string') return null;
    return collectionKeys.market({ page, size, q: typeof body.q === 'string' ? body.q.trim() : '', sort: sort as MarketSort });
  }
  if (call === 'collectionDetail' && typeof body.collection_id === 'string') {
    // The server reads as a visitor (the document request carries no session).
    return [...collectionKeys.detail(body.collection_id), 'visitor'];
  }
  if (call === 'reviewList' && typeof body.collection_id === 'string' && isRecord(body.paginator)) {
    const { page, size } = body.paginator;
    if (typeof page !== 'number' || typeof size !== 'number') return null;
    return collectionKeys.reviewsPage(body.collection_id, { page, size }, 'visitor');
  }
  return null;
}

/**
 * Seeds `client` from the document's initial-data element and removes the element (seeded once).
 * @returns how many answers were seeded
 */
export function seedInitialData(client: QueryClient, doc: Document = document): number {
  const element = doc.getElementById(INITIAL_DATA_ELEMENT_ID);
  if (!element) return 0;
  element.remove();
  let calls: unknown;
  try {
    calls = JSON.parse(element.textContent ?? '');
  } catch {
    return 0;
  }
  if (!Array.isArray(calls)) return 0;
  let seeded = 0;
  for (const c of calls) {
    if (!isRecord(c) || typeof c.call !== 'string' || !isRecord(c.body) || c.data === undefined) continue;
    const key = initialDataKey(c as unknown as InitialCall);
    if (!key) continue;
    client.setQueryData(key, c.data);
    seeded += 1;
  }
  return seeded;
}
