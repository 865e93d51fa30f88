/** The dialog API whose Radix code loads after the first screen (docs/decisions/0044-first-screen-before-the-font.md). */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Toaster } from 'react-hot-toast';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** A fresh copy of lazy-dialog.tsx, its implementation not loaded yet (the setup file preloads the shared copy). */
async function freshLazyDialog() {
  vi.resetModules();
  return import('./lazy-dialog');
}

describe('lazy dialog', () => {
  afterEach(() => {
    vi.doUnmock('./dialog');
  });

  it('renders nothing while closed; opened before its code has arrived, it appears once loaded, with focus inside and Escape closing it', async () => {
    const { Dialog, DialogContent, DialogFooter } = await freshLazyDialog();
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
          <Dialog open={open} onOpenChange={setOpen}>
            <DialogContent title="Confirm purchase" description="Textures">
              <DialogFooter>
                <button type="button">Confirm</button>
              </DialogFooter>
            </DialogContent>
          </Dialog>
        </>
      );
    }
    const user = userEvent.setup();
    render(<Opener />);
    expect(screen.queryByRole('dialog')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm purchase' });
    expect(dialog).toHaveAccessibleDescription('Textures');
    expect(dialog.contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    // Loaded now: opening again renders in the same pass as the click.
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(screen.getByRole('dialog', { name: 'Confirm purchase' })).toBeInTheDocument();
  });

  it('shares one load between callers', async () => {
    const { preloadDialog } = await freshLazyDialog();
    const [a, b] = [preloadDialog(), preloadDialog()];
    expect(a).toBe(b);
    const m = await a;
    expect(typeof m.DialogContent).toBe('function');
  });

  it('closes itself and toasts when its code cannot be fetched; opening it again fetches again and shows it', async () => {
    vi.resetModules();
    vi.doMock('./dialog', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    const { Dialog, DialogContent } = await import('./lazy-dialog');
    const changes: boolean[] = [];
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open
          </button>
          <Dialog
            open={open}
            onOpenChange={(o) => {
              changes.push(o);
              setOpen(o);
            }}
          >
            <DialogContent title="Report this collection">body</DialogContent>
          </Dialog>
          <Toaster />
        </>
      );
    }
    const user = userEvent.setup();
    render(<Opener />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('An unexpected error occurred.')).toBeInTheDocument();
    expect(changes).toEqual([false]);
    expect(screen.queryByRole('dialog')).toBeNull();

    // The file is back (the connection recovered): the next opening loads it and shows the dialog.
    vi.doUnmock('./dialog');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'Report this collection' })).toBeInTheDocument();
  });
});
