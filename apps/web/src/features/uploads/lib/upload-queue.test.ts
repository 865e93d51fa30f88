import type { Resource } from '@coffer/contract';
import { partSizeFor } from '@coffer/contract/constants';
import { describe, expect, test, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import type { UploadTransport } from '../api/uploads';
import { addSample, formatSpeed, percentOf, speedOf, summarize } from './upload-progress';
import { MAX_PARTS_IN_FLIGHT, UploadQueue } from './upload-queue';

const MiB = 1024 * 1024;
const file = (size: number, name = 'data.bin') => new File([new Uint8Array(size)], name, { type: 'application/octet-stream' });
const resource = (name: string, size: number): Resource => ({ id: `r-${name}`, collection_id: null, name, size, md5: 'x'.repeat(32), content_type: 'application/octet-stream', created_at: 1, version: 1, updated_at: null, preview: false });

/** An in-memory transport: parts "arrive" when a PUT resolves; `failPut` decides failures. */
function fakeTransport(opts: { failPut?: (part: number, attempt: number) => boolean; etagFor?: (part: number, attempt: number) => string; partSize?: number } = {}) {
  const stored = new Map<number, { etag: string; size: number }>();
  const attempts = new Map<number, number>();
  let inFlight = 0;
  let maxInFlight = 0;
  const puts: number[] = [];
  let size = 0;
  let partSize = opts.partSize ?? 5 * MiB;
  const transport: UploadTransport = {
    startSingle: vi.fn(async (body) => ((size = body.size), { upload_id: 'single-1', url: 'https://storage/single' })),
    startMultipart: vi.fn(async (body) => {
      size = body.size;
      return { upload_id: 'mp-1', part_size: partSize, part_count: Math.ceil(body.size / partSize) };
    }),
    partUrl: vi.fn(async (_id, n) => ({ url: `https://storage/part/${n}`, size: partSize })),
    listParts: vi.fn(async () => ({
      parts: [...stored.entries()].map(([part_number, p]) => ({ part_number, ...p })),
      part_size: partSize,
      part_count: Math.ceil(size / partSize),
    })),
    complete: vi.fn(async (_id, _parts) => resource('data.bin', size)),
    put: vi.fn(async (url: string, body: Blob, o) => {
      const n = url.endsWith('single') ? 1 : Number(url.split('/').pop());
      const attempt = (attempts.get(n) ?? 0) + 1;
      attempts.set(n, attempt);
      puts.push(n);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise((r) => setTimeout(r, 1));
        if (o.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
        o.onProgress?.(Math.floor(body.size / 2));
        await new Promise((r) => setTimeout(r, 1));
        if (opts.failPut?.(n, attempt)) throw new Error('Network error while uploading');
        o.onProgress?.(body.size);
        const etag = opts.etagFor?.(n, attempt) ?? `"etag-${n}"`;
        stored.set(n, { etag, size: body.size });
        return etag;
      } finally {
        inFlight--;
      }
    }),
  };
  return { transport, stored, puts, get maxInFlight() { return maxInFlight; }, setPartSize: (s: number) => (partSize = s) };
}

function queueWith(transport: UploadTransport, extra: Partial<ConstructorParameters<typeof UploadQueue>[0]> = {}) {
  let t = 0;
  return new UploadQueue({
    transport,
    hashWhole: vi.fn(async (_f, o) => (o?.onProgress?.(1), 'a'.repeat(32))),
    hashParts: vi.fn(async () => ({ md5: 'b'.repeat(32), parts: [] })),
    now: () => (t += 100),
    sleep: async () => {},
    ...extra,
  });
}

describe('upload progress arithmetic', () => {
  test('speed over the sample window, percent and the overall summary', () => {
    let samples = addSample([], { t: 0, bytes: 0 });
    samples = addSample(samples, { t: 1000, bytes: 2 * MiB });
    expect(speedOf(samples)).toBe(2 * MiB);
    samples = addSample(samples, { t: 5000, bytes: 6 * MiB });
    // The window keeps one sample at or before t - 3 s as its base.
    expect(samples.map((s) => s.t)).toEqual([1000, 5000]);
    expect(speedOf(samples)).toBe(MiB);
    expect(speedOf([{ t: 1, bytes: 5 }])).toBe(0);
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(0, 0)).toBe(100);
    expect(formatSpeed(1536 * 1024)).toBe('1.5 MB/s');
    const overall = summarize([
      { size: 100, uploadedBytes: 50, speed: 10, status: 'uploading' },
      { size: 300, uploadedBytes: 300, speed: 0, status: 'done' },
      { size: 1000, uploadedBytes: 10, speed: 99, status: 'cancelled' },
    ]);
    expect(overall).toEqual({ totalBytes: 400, uploadedBytes: 350, percent: 87, speed: 10, files: 2, done: 1, failed: 0, active: 1 });
  });

  test('part size follows the server rule: 5 MiB, larger for huge files', () => {
    expect(partSizeFor(30 * MiB)).toBe(5 * MiB);
    expect(partSizeFor(100_000 * MiB)).toBe(10 * MiB);
  });
});

describe('UploadQueue', () => {
  test('a small file goes in one presigned PUT; progress, bytes and percent end at 100', async () => {
    const fake = fakeTransport();
    const q = queueWith(fake.transport);
    const snapshots: number[] = [];
    q.subscribe(() => snapshots.push(q.getSnapshot().overall.percent));
    q.add([file(1000, 'small.txt')]);
    const [item] = await q.whenSettled();
    expect(item).toMatchObject({ status: 'done', mode: 'single', uploadedBytes: 1000, md5: 'a'.repeat(32), error: null });
    expect(item!.resource?.name).toBe('data.bin');
    expect(fake.transport.startSingle).toHaveBeenCalledWith({ file_name: 'small.txt', size: 1000, md5: 'a'.repeat(32), content_type: 'application/octet-stream' }, expect.anything());
    expect(fake.transport.complete).toHaveBeenCalledWith('single-1', [], expect.anything());
    expect(snapshots).toContain(50);
    expect(q.getSnapshot().overall).toMatchObject({ percent: 100, done: 1, active: 0 });
  });

  test('a large file goes multipart with at most 4 parts in flight and completes with every ETag in order', async () => {
    const fake = fakeTransport();
    const q = queueWith(fake.transport);
    q.add([file(27 * MiB)]);
    const [item] = await q.whenSettled();
    expect(item).toMatchObject({ status: 'done', mode: 'multipart', partCount: 6, partsDone: 6 });
    expect(fake.maxInFlight).toBe(MAX_PARTS_IN_FLIGHT);
    expect(fake.transport.complete).toHaveBeenCalledWith(
      'mp-1',
      [1, 2, 3, 4, 5, 6].map((n) => ({ part_number: n, etag: `"etag-${n}"` })),
      expect.anything(),
    );
  });

  test('a failed part is retried and the file still completes', async () => {
    const fake = fakeTransport({ failPut: (n, attempt) => n === 3 && attempt === 1 });
    const sleep = vi.fn(async (_ms: number, _signal: AbortSignal) => {});
    const q = queueWith(fake.transport, { sleep, retryDelayMs: 1000 });
    q.add([file(27 * MiB)]);
    const [item] = await q.whenSettled();
    expect(item).toMatchObject({ status: 'done', partRetries: 1 });
    expect(fake.puts.filter((n) => n === 3)).toHaveLength(2);
    expect(sleep).toHaveBeenCalledWith(1000, expect.anything());
  });

  test('after a part fails 3 times the file fails; retry resumes with list-parts and sends only the missing parts', async () => {
    let broken = true;
    const fake = fakeTransport({ failPut: (n) => broken && n === 5 });
    const sleep = vi.fn(async (_ms: number, _signal: AbortSignal) => {});
    const q = queueWith(fake.transport, { sleep, retryDelayMs: 1000 });
    const [id] = q.add([file(27 * MiB)]);
    let [item] = await q.whenSettled();
    expect(item!.status).toBe('failed');
    expect(item!.error).toBe('Part 5 failed after 3 attempts: Network error while uploading');
    expect(sleep.mock.calls.map((c) => c[0])).toEqual([1000, 2000]);
    expect(fake.stored.has(5)).toBe(false);

    broken = false;
    const before = fake.puts.length;
    q.retry(id!);
    [item] = await q.whenSettled();
    expect(item!.status).toBe('done');
    expect(fake.transport.listParts).toHaveBeenCalledWith('mp-1', expect.anything());
    expect(fake.transport.startMultipart).toHaveBeenCalledTimes(1);
    expect(fake.puts.slice(before)).toEqual([5]);
    expect(q.getSnapshot().overall.percent).toBe(100);
  });

  test('a resume of an upload the server failed starts a new one', async () => {
    const fake2 = fakeTransport({ failPut: (_n, attempt) => attempt <= 3 });
    const q2 = queueWith(fake2.transport);
    const [id2] = q2.add([file(27 * MiB)]);
    await q2.whenSettled();
    vi.mocked(fake2.transport.listParts).mockRejectedValueOnce(new ApiError({ message: 'This upload failed; start a new upload', code: 10005, msg: '', status: 409 }));
    const failPut = vi.mocked(fake2.transport.put);
    failPut.mockImplementation(async (_u, body, o) => (o.onProgress?.(body.size), '"ok"'));
    q2.retry(id2!);
    const [item] = await q2.whenSettled();
    expect(item!.status).toBe('done');
    expect(fake2.transport.startMultipart).toHaveBeenCalledTimes(2);
  });

  test('an ETag that differs from the part MD5 is re-sent (files above 50 MB carry part hashes)', async () => {
    const size = 51 * MiB;
    const partHashes = Array.from({ length: Math.ceil(size / (5 * MiB)) }, (_, i) => `${i + 1}`.padStart(32, '0'));
    const fake = fakeTransport({ etagFor: (n, attempt) => (n === 2 && attempt === 1 ? '"deadbeef"' : `"${partHashes[n - 1]}"`) });
    const hashParts = vi.fn(async () => ({ md5: 'c'.repeat(32), parts: partHashes }));
    const q = queueWith(fake.transport, { hashParts });
    q.add([file(size, 'big.bin')]);
    const [item] = await q.whenSettled();
    expect(hashParts).toHaveBeenCalledWith(expect.any(File), 5 * MiB, expect.anything());
    expect(item).toMatchObject({ status: 'done', md5: 'c'.repeat(32), partRetries: 1 });
    expect(fake.puts.filter((n) => n === 2)).toHaveLength(2);
  });

  test('cancel aborts the PUTs in flight and leaves the file cancelled', async () => {
    const fake = fakeTransport();
    const signals: AbortSignal[] = [];
    vi.mocked(fake.transport.put).mockImplementation(
      (_u, _b, o) =>
        new Promise((_resolve, reject) => {
          signals.push(o.signal!);
          o.signal!.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
        }),
    );
    const q = queueWith(fake.transport);
    const [id] = q.add([file(27 * MiB)]);
    await vi.waitFor(() => expect(signals).toHaveLength(MAX_PARTS_IN_FLIGHT));
    q.cancel(id!);
    const [item] = await q.whenSettled();
    expect(item!.status).toBe('cancelled');
    expect(signals.every((sig) => sig.aborted)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.transport.complete).not.toHaveBeenCalled();
    expect(q.getSnapshot().overall.files).toBe(0);
  });
});
