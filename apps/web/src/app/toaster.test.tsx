import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, describe, expect, it } from 'vitest';
import { AppToaster, TOAST_TOP_OFFSET_PX } from './provider';

afterEach(() => act(() => toast.remove()));

describe('AppToaster', () => {
  it('starts toasts below the 64 px top bar so the balance and menu buttons stay clear', async () => {
    render(<AppToaster />);
    act(() => {
      toast.success('Login successful');
    });
    const message = await screen.findByText('Login successful');
    // react-hot-toast's container: the fixed element around every toast.
    let container: HTMLElement | null = message;
    while (container && container.style.position !== 'fixed') container = container.parentElement;
    expect(container).not.toBeNull();
    expect(container!.style.top).toBe(`${TOAST_TOP_OFFSET_PX}px`);
    expect(TOAST_TOP_OFFSET_PX).toBeGreaterThan(64); // the top bar is h-16 (64 px)
  });
});
