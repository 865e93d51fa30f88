/**
 * `toPage`: the one place the server builds a paged answer (product §3 Pagination). Every paged call
 * (my/collections, user/collections, market/collections, my/orders, my/purchased/collections,
 * record/list) answers `{<itemsKey>: items, page, size, totalCount, totalPages, hasNextPage, count}`,
 * the contract's `pageOf(itemsKey, item)` schema; the fields come from the contract's `pageFields`.
 */
import { pageFields, type PageFields } from '@coffer/contract';

/**
 * @param itemsKey the answer's list field, e.g. 'collections'
 * @param items the items of page `paginator.page` (at most `paginator.size`)
 * @param paginator the request's paginator, page from 0
 * @param totalCount items matching the query across every page
 */
export function toPage<K extends string, T>(
  itemsKey: K,
  items: T[],
  paginator: { page: number; size: number },
  totalCount: number,
): { [P in K]: T[] } & PageFields {
  return { [itemsKey]: items, ...pageFields(paginator, totalCount) } as { [P in K]: T[] } & PageFields;
}
