/** Banners below the first wait for the first screen (docs/decisions/0044-first-screen-before-the-font.md). */
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

/** Fresh copies of the banner and the first-screen flag (the setup file marks the shared copy shown). */
async function fresh() {
  vi.resetModules();
  const flag = await import('@/lib/after-first-screen');
  const { BannerImage } = await import('./banner-image');
  return { ...flag, BannerImage };
}

describe('BannerImage before and after the first screen', () => {
  it('renders the eager banner at once, high priority; a lazy one only once the first screen has been shown, in a box of the same size', async () => {
    const { BannerImage, markFirstScreenShown } = await fresh();
    const { container } = render(
      <>
        <BannerImage src="/media/first" alt="First" eager />
        <BannerImage src="/media/second" alt="Second" />
      </>,
    );
    const first = screen.getByRole('img', { name: 'First' });
    expect(first).toHaveAttribute('loading', 'eager');
    expect(first).toHaveAttribute('fetchpriority', 'high');
    expect(screen.queryByRole('img', { name: 'Second' })).toBeNull();
    // Both boxes are there, the same 16:9 box, so nothing moves when the image comes.
    const boxes = container.querySelectorAll('.aspect-\\[16\\/9\\]');
    expect(boxes).toHaveLength(2);

    act(() => markFirstScreenShown());
    const second = screen.getByRole('img', { name: 'Second' });
    expect(second).toHaveAttribute('loading', 'lazy');
    expect(second).not.toHaveAttribute('fetchpriority');
  });

  it("shows 'No Banner' without waiting when there is no image", async () => {
    const { BannerImage } = await fresh();
    render(<BannerImage src={null} alt="None" />);
    expect(screen.getByText('No Banner')).toBeInTheDocument();
  });
});
