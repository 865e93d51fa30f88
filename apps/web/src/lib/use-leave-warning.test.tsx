import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { Link, MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { LEAVE_GUARD_STATE, leaveGuardOptions, useLeaveWarning } from './use-leave-warning';

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
    // Off the guard entry first (history.back), then to the link.
    expect(await screen.findByText('Elsewhere page')).toBeInTheDocument();
    expect((window.history.state as Record<string, unknown> | null)?.[LEAVE_GUARD_STATE]).toBeUndefined();
  });

  test('links inside the scope are left alone', async () => {
    const confirm = vi.spyOn(window, 'confirm');
    renderPage(true);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Inside' }));
    expect(confirm).not.toHaveBeenCalled();
    expect(screen.getByText('Inside page')).toBeInTheDocument();
  });

  describe('the Back button', () => {
    const popped = () => new Promise<void>((resolve) => window.addEventListener('popstate', () => resolve(), { once: true }));
    const guarded = () => Boolean((window.history.state as Record<string, unknown> | null)?.[LEAVE_GUARD_STATE]);
    // Each case starts on a plain entry of the page at the end of jsdom's history (a push drops the
    // forward entries a case that went Back left behind), whatever the case before did.
    beforeEach(() => window.history.pushState(null, '', '/upload'));

    test('while active, a guard entry of the same page is pushed; Back asks, and staying pushes it again', async () => {
      const confirm = vi.spyOn(window, 'confirm').mockReturnValue(false);
      const before = window.history.length;
      const { unmount } = renderPage(true);
      expect(window.history.length).toBe(before + 1);
      expect(guarded()).toBe(true);
      expect(leaveGuardOptions()).toEqual({ replace: true });

      const back = popped();
      window.history.back();
      await back;
      expect(confirm).toHaveBeenCalledWith(MESSAGE);
      // Stayed: on a guard entry again, the page still shown.
      expect(guarded()).toBe(true);
      expect(screen.getByRole('link', { name: 'Elsewhere' })).toBeInTheDocument();
      unmount();
    });

    test('leaving goes back once more, past the page', async () => {
      window.history.pushState({ page: 'before' }, '', '/before');
      window.history.pushState(null, '', '/upload');
      vi.spyOn(window, 'confirm').mockReturnValue(true);
      const { unmount } = renderPage(true);
      expect(guarded()).toBe(true);
      const first = popped();
      window.history.back();
      await first;
      // The listener asked and went back again: the page before.
      await popped();
      expect(window.location.pathname).toBe('/before');
      unmount();
    });

    test('when the work is saved on the page, the guard entry becomes a plain copy (nothing asked on Back)', async () => {
      const confirm = vi.spyOn(window, 'confirm');
      const { rerender } = render(
        <MemoryRouter>
          <Page active />
        </MemoryRouter>,
      );
      expect(guarded()).toBe(true);
      rerender(
        <MemoryRouter>
          <Page active={false} />
        </MemoryRouter>,
      );
      expect(guarded()).toBe(false);
      expect(leaveGuardOptions()).toEqual({ replace: false });
      const back = popped();
      window.history.back();
      await back;
      expect(confirm).not.toHaveBeenCalled();
    });

    test('inactive: no entry is pushed', () => {
      const before = window.history.length;
      renderPage(false);
      expect(window.history.length).toBe(before);
      expect(guarded()).toBe(false);
    });
  });
});

