import type { LibraryChange } from '@coffer/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { renderWithProviders } from '@/test/helpers';
import { LibraryNotices } from './profile-purchases';

const C1 = '0190f3a2-0000-7000-8000-0000000000c1';
const change = (overrides: Partial<LibraryChange>): LibraryChange => ({
  collection_id: C1,
  resource_id: '0190f3a2-0000-7000-8000-0000000000a1',
  version: 1,
  kind: 'added',
  name: 'notes.txt',
  at: Date.UTC(2026, 10, 1, 12),
  ...overrides,
});

describe('Updates on My Purchases', () => {
  test('lists the latest changes newest first with kind, file, version, collection link and date', () => {
    const changes = [
      change({}),
      change({ kind: 'updated', version: 2, name: 'guide.pdf', at: Date.UTC(2026, 10, 2, 12) }),
      change({ kind: 'removed', name: 'old.zip', at: Date.UTC(2026, 10, 3, 12) }),
    ];
    renderWithProviders(<LibraryNotices changes={changes} titles={new Map([[C1, 'Field kit']])} />);
    const rows = screen.getAllByTestId('library-notice');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Removedold.zipin Field kit · Nov 03, 2026',
      'Updatedguide.pdf (v2)in Field kit · Nov 02, 2026',
      'New filenotes.txtin Field kit · Nov 01, 2026',
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'Field kit' })).toHaveAttribute('href', `/collection/${C1}`);
  });

  test('shows at most five, names an unknown collection generically, and nothing without changes', () => {
    const many = Array.from({ length: 7 }, (_, i) => change({ name: `f${i}.txt`, collection_id: 'other', resource_id: `r${i}` }));
    const { unmount } = renderWithProviders(<LibraryNotices changes={many} titles={new Map()} />);
    expect(screen.getAllByTestId('library-notice')).toHaveLength(5);
    expect(screen.getAllByRole('link', { name: 'a collection you bought' })).toHaveLength(5);
    unmount();
    renderWithProviders(<LibraryNotices changes={[]} titles={new Map()} />);
    expect(screen.queryByRole('heading', { name: 'Updates' })).not.toBeInTheDocument();
  });
});
