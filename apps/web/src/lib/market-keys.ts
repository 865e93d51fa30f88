/**
 * Query keys of the marketplace, all under the session roots ['collections', ...] and
 * ['resources', ...] so that session expiry and logout drop them (product §4). Shared below the
 * marketplace features (collections, orders, discounts, reviews, sales): a call of one feature
 * changes what another shows (a purchase, a review), the document's initial data seeds the
 * collection page's reviews, and the buy dialog shares the page's `?code=` preview; one factory
 * keeps their keys equal.
 */
import type { MarketSort } from '@coffer/contract';
import { queryKeys } from '@/lib/query-client';

export interface PageParams {
  /** From 0. */
  page: number;
  size: number;
}

export const collectionKeys = {
  all: queryKeys.collections,
  mine: () => [...queryKeys.collections, 'mine'] as const,
  minePage: (p: PageParams) => [...queryKeys.collections, 'mine', p] as const,
  market: (p: PageParams & { q: string; sort: MarketSort }) => [...queryKeys.collections, 'market', p] as const,
  user: (userId: string, p: PageParams) => [...queryKeys.collections, 'user', userId, p] as const,
  /** A seller's public page (`creator/detail`): the creator, their rating and one page of their collections. */
  creator: (userId: string, p: PageParams) => [...queryKeys.collections, 'creator', userId, p] as const,
  detail: (id: string) => [...queryKeys.collections, 'detail', id] as const,
  purchased: (p: PageParams) => [...queryKeys.collections, 'purchased', p] as const,
  orders: (p: PageParams) => [...queryKeys.collections, 'orders', p] as const,
  sales: (p: PageParams & { pendingRequests: boolean }) => [...queryKeys.collections, 'sales', p] as const,
  discounts: (p: PageParams) => [...queryKeys.collections, 'discounts', p] as const,
  discountPreview: (collectionId: string, code: string) =>
    [...queryKeys.collections, 'discount-preview', collectionId, code] as const,
  licence: (collectionId: string) => [...queryKeys.collections, 'licence', collectionId] as const,
  /** A collection's reviews (product §29); the viewer is in the key (`mine`, `can_review`). */
  reviews: (id: string) => [...queryKeys.collections, 'reviews', id] as const,
  reviewsPage: (id: string, p: PageParams, viewerId: string) => [...queryKeys.collections, 'reviews', id, p, viewerId] as const,
  dashboard: (days: number) => [...queryKeys.collections, 'dashboard', days] as const,
};

export const resourceKeys = {
  all: queryKeys.resources,
  detail: (id: string) => [...queryKeys.resources, 'detail', id] as const,
};
