import type { Resource } from '@coffer/contract';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { UploadTransport } from '../api/uploads';
import { useUploadQueue } from '../hooks/use-upload-queue';
import { UploadQueue } from '../lib/upload-queue';
import { FileUploader } from './file-uploader';

/** A transport whose single PUT is driven by the test: `progress(n)`, then `finish()` or `fail()`. */
function controlledTransport() {
  let onProgress: ((n: number) => void) | undefined;
  let settle: { resolve: (etag: string) => void; reject: (e: Error) => void } | undefined;
  const transport: UploadTransport = {
    startSingle: vi.fn(async () => ({ upload_id: 'u1', url: 'https://storage/put' })),
    startMultipart: vi.fn(),
    partUrl: vi.fn(),
    listParts: vi.fn(),
    complete: vi.fn(async (): Promise<Resource> => ({ id: 'r1', collection_id: null, name: 'notes.txt', size: 1000, md5: 'a'.repeat(32), content_type: 'text/plain', created_at: 1, version: 1, updated_at: null, preview: false })),
    put: vi.fn(
      (_url, _body, o) =>
        new Promise<string>((resolve, reject) => {
          onProgress = o.onProgress;
          settle = { resolve, reject };
        }),
    ),
  };
  return {
    transport,
    progress: (n: number) => act(() => onProgress?.(n)),
    finish: () => act(async () => settle?.resolve('"etag"')),
    fail: () => act(async () => settle?.reject(new Error('Network error while uploading'))),
  };
}

function Harness({ make }: { make: () => UploadQueue }) {
  const { queue, snapshot } = useUploadQueue(make);
  return <FileUploader queue={queue} snapshot={snapshot} />;
}

describe('FileUploader progress', () => {
  test('shows each file and the overall bar moving from hashing to uploaded, with bytes and percent', async () => {
    const ctl = controlledTransport();
    let t = 0;
    const make = () => new UploadQueue({ transport: ctl.transport, hashWhole: async () => 'a'.repeat(32), now: () => (t += 500), sleep: async () => {} });
    const user = userEvent.setup();
    render(<Harness make={make} />);
    await user.upload(screen.getByLabelText('Choose files'), new File([new Uint8Array(1000)], 'notes.txt', { type: 'text/plain' }));

    const row = await screen.findByTestId('upload-row');
    await vi.waitFor(() => expect(row).toHaveAttribute('data-status', 'uploading'));
    ctl.progress(250);
    const fileBar = within(row).getByRole('progressbar', { name: 'notes.txt upload progress' });
    expect(fileBar).toHaveAttribute('aria-valuenow', '25');
    expect(within(row).getByText('25%')).toBeInTheDocument();
    expect(within(row).getByText(/Uploading · 250 Bytes of 1000 Bytes · \d+ B\/s/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Overall upload progress' })).toHaveAttribute('aria-valuenow', '25');
    expect(screen.getByText('0 of 1 file uploaded')).toBeInTheDocument();

    ctl.progress(1000);
    await ctl.finish();
    await vi.waitFor(() => expect(row).toHaveAttribute('data-status', 'done'));
    expect(screen.getByText('1 of 1 file uploaded')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Overall upload progress' })).toHaveAttribute('aria-valuenow', '100');
    expect(within(row).getByText(/Uploaded/)).toBeInTheDocument();
  });

  test('a failed upload shows its error and Retry; Cancel stops a running one', async () => {
    const ctl = controlledTransport();
    const make = () => new UploadQueue({ transport: ctl.transport, hashWhole: async () => 'a'.repeat(32), sleep: async () => {} });
    const user = userEvent.setup();
    render(<Harness make={make} />);
    await user.upload(screen.getByLabelText('Choose files'), new File([new Uint8Array(1000)], 'notes.txt'));
    const row = await screen.findByTestId('upload-row');
    await vi.waitFor(() => expect(ctl.transport.put).toHaveBeenCalled());
    await ctl.fail();
    await vi.waitFor(() => expect(row).toHaveAttribute('data-status', 'failed'));
    expect(within(row).getByRole('alert')).toHaveTextContent('Network error while uploading');

    await user.click(within(row).getByRole('button', { name: 'Retry notes.txt' }));
    await vi.waitFor(() => expect(ctl.transport.put).toHaveBeenCalledTimes(2));
    await user.click(within(row).getByRole('button', { name: 'Cancel notes.txt' }));
    expect(row).toHaveAttribute('data-status', 'cancelled');
    expect(within(row).getByRole('button', { name: 'Retry notes.txt' })).toBeInTheDocument();
  });

  test('failed files resume by themselves when the browser comes back online', async () => {
    const ctl = controlledTransport();
    const make = () => new UploadQueue({ transport: ctl.transport, hashWhole: async () => 'a'.repeat(32), sleep: async () => {} });
    const user = userEvent.setup();
    render(<Harness make={make} />);
    await user.upload(screen.getByLabelText('Choose files'), new File([new Uint8Array(1000)], 'notes.txt'));
    const row = await screen.findByTestId('upload-row');
    await vi.waitFor(() => expect(ctl.transport.put).toHaveBeenCalled());
    await ctl.fail();
    await vi.waitFor(() => expect(row).toHaveAttribute('data-status', 'failed'));
    act(() => void window.dispatchEvent(new Event('online')));
    await vi.waitFor(() => expect(ctl.transport.put).toHaveBeenCalledTimes(2));
    ctl.progress(1000);
    await ctl.finish();
    await vi.waitFor(() => expect(row).toHaveAttribute('data-status', 'done'));
  });

  test('an empty file is refused before it starts: the spec message, no progress bar, no Retry, only Remove', async () => {
    const { transport } = controlledTransport();
    const hashWhole = vi.fn(async () => 'a'.repeat(32));
    const make = () => new UploadQueue({ transport, hashWhole, sleep: async () => {} });
    const user = userEvent.setup();
    render(<Harness make={make} />);
    await user.upload(screen.getByLabelText('Choose files'), new File([], 'empty.txt', { type: 'text/plain' }));
    const row = await screen.findByTestId('upload-row');
    expect(row).toHaveAttribute('data-status', 'failed');
    expect(within(row).getByRole('alert')).toHaveTextContent('Cannot calculate MD5 for empty file');
    expect(within(row).queryByRole('progressbar')).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Retry/ })).not.toBeInTheDocument();
    expect(hashWhole).not.toHaveBeenCalled();
    expect(transport.startSingle).not.toHaveBeenCalled();
    await user.click(within(row).getByRole('button', { name: 'Remove empty.txt' }));
    expect(screen.queryByTestId('upload-row')).not.toBeInTheDocument();
  });

  test('next to files that uploaded, a refused empty file does not turn the overall bar red', async () => {
    const ctl = controlledTransport();
    const make = () => new UploadQueue({ transport: ctl.transport, hashWhole: async () => 'a'.repeat(32), sleep: async () => {} });
    const user = userEvent.setup();
    render(<Harness make={make} />);
    await user.upload(screen.getByLabelText('Choose files'), [
      new File([new Uint8Array(1000)], 'notes.txt', { type: 'text/plain' }),
      new File([], 'empty.txt', { type: 'text/plain' }),
    ]);
    await vi.waitFor(() => expect(ctl.transport.put).toHaveBeenCalled());
    ctl.progress(1000);
    await ctl.finish();
    await screen.findByText('1 of 2 files uploaded');
    expect(screen.getByRole('progressbar', { name: 'Overall upload progress' })).toHaveAttribute('data-tone', 'green');
  });

  test('a file that failed while uploading turns the overall bar red', async () => {
    const ctl = controlledTransport();
    const make = () => new UploadQueue({ transport: ctl.transport, hashWhole: async () => 'a'.repeat(32), sleep: async () => {} });
    const user = userEvent.setup();
    render(<Harness make={make} />);
    await user.upload(screen.getByLabelText('Choose files'), new File([new Uint8Array(1000)], 'notes.txt'));
    await vi.waitFor(() => expect(ctl.transport.put).toHaveBeenCalled());
    await ctl.fail();
    await vi.waitFor(() => expect(screen.getByTestId('upload-row')).toHaveAttribute('data-status', 'failed'));
    expect(screen.getByRole('progressbar', { name: 'Overall upload progress' })).toHaveAttribute('data-tone', 'red');
  });
});
