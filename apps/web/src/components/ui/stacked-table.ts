/**
 * Tables that read as stacked cards on a phone (the `.stack-table` rules in src/index.css): below
 * 640 px each row is a card and each cell shows its column's name. `useStackedLabels` writes each
 * column's name on its cells as `data-label` after every render (rows come and go with pages and
 * filters); a column whose name is '' (actions) shows no name.
 */
import { useLayoutEffect, type RefObject } from 'react';

/** The class that stacks a table below 640 px, and resets a sideways minimum width there. */
export const STACK_TABLE_CLASS = 'stack-table max-sm:min-w-0';

/** Labels the cells of `table`'s body rows with `labels` by column index. */
export function useStackedLabels(table: RefObject<HTMLTableElement | null>, labels: readonly string[]): void {
  useLayoutEffect(() => {
    const el = table.current;
    if (!el) return;
    for (const row of Array.from(el.tBodies).flatMap((b) => Array.from(b.rows))) {
      Array.from(row.cells).forEach((cell, i) => {
        const label = labels[i] ?? '';
        if (cell.dataset.label !== label) cell.dataset.label = label;
      });
    }
  });
}
