import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { useLeaveWarning } from './use-leave-warning';

const MESSAGE = 'Your files are not saved yet. Leave?';

function Page({ active }: { active: boolean }) {
  const scope = useRef<HTMLDivElement>(null);
  useLeaveWarning(active, MESSAGE, scope);
  return (
    <>
      <Link to="/elsewhere">Elsewhere</Link>
      <div ref={scope}>
        <Link to="/inside">Inside</Link>
      </div>
    </>
  );
}

function renderPage(active: boolean) {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<Page active={active} />} />
        <Route path="/elsewhere" element={<p>Elsewhere page</p>} />
        <Route path="/inside" element={<p>Inside page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const unload = () => {
  const e = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(e);
  return e;
};

afterEach(() => vi.restoreAllMocks());

describe('useLeaveWarning', () => {
  test('while active, closing or reloading the tab asks first (beforeunload is cancelled)', () => {
    const { unmount } = renderPage(true);
    expect(unload().defaultPrevented).toBe(true);
    unmount();
    expect(unload().defaultPrevented).toBe(false);
  });

  test('inactive: nothing is asked', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    renderPage(false);
    expect(unload().defaultPrevented).toBe(false);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.getByText('Elsewhere page')).toBeInTheDocument();
  });

  test('while active, a link to another page asks; staying keeps the page, leaving follows the link', async () => {
    const user = userEvent.setup();
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderPage(true);
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(confirm).toHaveBeenCalledWith(MESSAGE);
    expect(screen.queryByText('Elsewhere page')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(screen.getByText('Elsewhere page')).toBeInTheDocument();
  });

  test('links inside the scope are left alone', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    renderPage(true);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Inside' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.getByText('Inside page')).toBeInTheDocument();
  });
});
