import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import { LoadError } from './load-error';

describe('LoadError (a failed load)', () => {
  test('announces the message and the detail, and Try again asks again once per press; further actions sit beside it', async () => {
    const onRetry = vi.fn();
    render(
      <LoadError message="Failed to load sales" detail="Server error. Please try again later." onRetry={onRetry}>
        <a href="/">Browse collections</a>
      </LoadError>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Failed to load sales');
    expect(alert).toHaveTextContent('Server error. Please try again later.');
    expect(screen.getByRole('link', { name: 'Browse collections' })).toHaveAttribute('href', '/');
    expect(onRetry).not.toHaveBeenCalled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  test('without a detail there is one line of text', () => {
    render(<LoadError message="Failed to load orders" onRetry={() => {}} />);
    expect(screen.getByRole('alert').querySelectorAll('p')).toHaveLength(1);
  });
});
