import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useNavigate, type NavigateFunction } from 'react-router';
import { useScrollRestoration } from './scroll-restoration';

let navigate: NavigateFunction;
function Probe() {
  useScrollRestoration();
  navigate = useNavigate();
  return null;
}

/** Moves the window as a user's scrolling does (jsdom does not scroll). */
function scrollWindow(y: number) {
  Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
  window.dispatchEvent(new Event('scroll'));
}

describe('scroll restoration (issue 43)', () => {
  let scrollTo: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    // A page tall enough for any position.
    Object.defineProperty(document.documentElement, 'scrollHeight', { value: 10_000, configurable: true });
  });
  afterEach(() => vi.unstubAllGlobals());

  it('opens a new page at the top and returns to the old position on Back', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Probe />
      </MemoryRouter>,
    );
    scrollWindow(1_200);
    scrollTo.mockClear();
    act(() => navigate('/terms'));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
    scrollWindow(300);
    act(() => navigate(-1));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 1_200);
    act(() => navigate(1));
    expect(scrollTo).toHaveBeenLastCalledWith(0, 300);
  });

  it('leaves a link to an anchor to the browser', () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Probe />
      </MemoryRouter>,
    );
    scrollTo.mockClear();
    act(() => navigate('/terms#refunds'));
    expect(scrollTo).not.toHaveBeenCalled();
  });
});
