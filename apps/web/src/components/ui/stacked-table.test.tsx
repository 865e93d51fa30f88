import { render } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { STACK_TABLE_CLASS, useStackedLabels } from './stacked-table';

function Table({ rows }: { rows: string[] }) {
  const ref = useRef<HTMLTableElement>(null);
  useStackedLabels(ref, ['Date', 'Collection', '']);
  return (
    <table ref={ref} className={STACK_TABLE_CLASS}>
      <tbody>
        {rows.map((r) => (
          <tr key={r}>
            <td>{r}</td>
            <td>Icons</td>
            <td>
              <button type="button">Request refund</button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

describe('useStackedLabels', () => {
  it("names each cell after its column, '' for the actions column, also on rows that arrive later", () => {
    const { container, rerender } = render(<Table rows={['Jan 1']} />);
    const cells = () => Array.from(container.querySelectorAll('td')).map((td) => td.dataset.label);
    expect(cells()).toEqual(['Date', 'Collection', '']);
    rerender(<Table rows={['Jan 1', 'Jan 2']} />);
    expect(cells()).toEqual(['Date', 'Collection', '', 'Date', 'Collection', '']);
    expect(container.querySelector('table')).toHaveClass('stack-table');
  });
});

