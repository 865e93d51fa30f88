/** Rendering and data helpers of the marketplace component tests (collections, orders, discounts, reviews, sales). */
import type { Collection } from '@coffer/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppToaster } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';

/** Renders `ui` at `path` in a memory router with a fresh QueryClient and the toaster. */
export function renderWithProviders(ui: ReactNode, { path = '/', routePath = '*' }: { path?: string; routePath?: string } = {}) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter([{ path: routePath, element: ui }], { initialEntries: [path] });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <AppToaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}

let n = 0;
/** A collection as the server answers it; override any field. */
export function makeCollection(overrides: Partial<Collection> = {}): Collection {
  n++;
  return {
    id: `0190f3a2-0000-7000-8000-${String(n).padStart(12, '0')}`,
    title: `Collection ${n}`,
    desc: `Description ${n}`,
    amount: 10,
    sold_count: 0,
    earned: 0,
    status: 'Published',
    created_at: Date.now() - 3 * 60_000,
    owner_id: '0190f3a2-0000-7000-8000-000000000001',
    resource_count: 1,
    rating_sum: 0,
    rating_count: 0,
    ...overrides,
  };
}
