/**
 * POST /sl/v1/my/library/changes {cursor?} -> {changes, cursor, has_more} (product §24): files added,
 * updated or removed in collections the caller bought, oldest first. The notices panel reads the
 * latest page from the start and keeps the newest change per collection.
 */
import type { LibraryChange, MyLibraryChangesData } from '@coffer/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '@/lib/api-client';
import { collectionKeys } from '@/lib/market-keys';

/** Every change from the start (follows `has_more`, at most `maxPages` pages). */
export async function getLibraryChanges(signal?: AbortSignal, maxPages = 10): Promise<LibraryChange[]> {
  const all: LibraryChange[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < maxPages; i++) {
    const page: MyLibraryChangesData = await callApi('myLibraryChanges', cursor ? { cursor } : {}, { signal });
    all.push(...page.changes);
    if (!page.has_more) break;
    cursor = page.cursor;
  }
  return all;
}

export const libraryChangesQueryOptions = () =>
  queryOptions({
    queryKey: [...collectionKeys.all, 'library-changes'] as const,
    queryFn: ({ signal }) => getLibraryChanges(signal),
    staleTime: 30_000,
  });

export function useLibraryChanges({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...libraryChangesQueryOptions(), enabled });
}
