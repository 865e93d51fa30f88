import { createHash } from 'node:crypto';
import { MD5_MAX_FILE_BYTES } from '@coffer/contract/constants';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { md5OfBlob, md5OfBlobParts } from '../workers/md5-core';
import { calculateFileMd5, hashFileParts, Md5Error, Md5Messages } from './file-md5';
import type { Md5Engine } from './md5-engine';

/** The worker's own hashing code, run on this thread (jsdom has no Worker). */
const mainThreadEngine: Md5Engine = {
  digest: (blob, format, o) =>
    md5OfBlob(blob, format, { onProgress: o?.onProgress, isCancelled: () => Boolean(o?.signal?.aborted) }),
  digestParts: (blob, partSize, o) => md5OfBlobParts(blob, partSize, { onProgress: o?.onProgress }),
};
const noMemory = () => null;

// jsdom's Blob has no arrayBuffer(); browsers (and the worker) do.
if (!Blob.prototype.arrayBuffer) {
  Blob.prototype.arrayBuffer = function arrayBuffer(this: Blob) {
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(this);
    });
  };
}
const text = (s: string) => new Blob([s]);
/** The oracle: Node's own MD5 of the same bytes. */
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

afterEach(() => vi.useRealTimers());

describe('calculateFileMd5 (product §5 file hashing)', () => {
  test('hex and base64 digests of a known input', async () => {
    expect(await calculateFileMd5(text('hello'), { engine: mainThreadEngine, memory: noMemory })).toBe(
      '5d41402abc4b2a76b9719d911017c592',
    );
    expect(await calculateFileMd5(text('hello'), { engine: mainThreadEngine, memory: noMemory, format: 'base64' })).toBe(
      'XUFAKrxLKna5cZ2REBfFkg==',
    );
  });

  test('hashes incrementally over chunks and reports progress', async () => {
    const bytes = new Uint8Array(10_000).map((_, i) => i % 251);
    const seen: number[] = [];
    const hex = await md5OfBlob(new Blob([bytes]), 'hex', { chunkBytes: 4096, onProgress: (n) => seen.push(n) });
    expect(seen).toEqual([4096, 8192, 10_000]);
    expect(hex).toBe(md5(bytes));
  });

  test.each([[null], [undefined], ['a string'], [{ size: 3 }], [42]])(
    'rejects %p with Invalid file or blob object',
    async (input) => {
      await expect(calculateFileMd5(input, { engine: mainThreadEngine })).rejects.toThrow(Md5Messages.invalid);
    },
  );

  test('rejects an empty file', async () => {
    const digest = vi.fn();
    await expect(calculateFileMd5(new Blob([]), { engine: { ...mainThreadEngine, digest } })).rejects.toThrow(
      'Cannot calculate MD5 for empty file',
    );
    expect(digest).not.toHaveBeenCalled();
  });

  test('accepts exactly 50 MB and rejects one byte more, without hashing it', async () => {
    const digest = vi.fn(async () => 'd41d8cd98f00b204e9800998ecf8427e');
    const engine = { ...mainThreadEngine, digest };
    await expect(
      calculateFileMd5(new Blob([new Uint8Array(MD5_MAX_FILE_BYTES)]), { engine, memory: noMemory }),
    ).resolves.toHaveLength(32);
    await expect(
      calculateFileMd5(new Blob([new Uint8Array(MD5_MAX_FILE_BYTES + 1)]), { engine, memory: noMemory }),
    ).rejects.toThrow('File size exceeds the maximum allowed size of 50 MB');
    expect(digest).toHaveBeenCalledTimes(1);
  });

  test('output is hex or base64 only', async () => {
    await expect(calculateFileMd5(text('x'), { engine: mainThreadEngine, format: 'binary' as 'hex' })).rejects.toThrow(
      Md5Messages.format,
    );
  });

  test('fails when memory use exceeds 80 percent of the limit', async () => {
    const digest = vi.fn();
    const memory = () => ({ used: 81, limit: 100 });
    await expect(calculateFileMd5(text('x'), { engine: { ...mainThreadEngine, digest }, memory, retries: 0 })).rejects.toThrow(
      Md5Messages.memory,
    );
    expect(digest).not.toHaveBeenCalled();
    await expect(
      calculateFileMd5(text('x'), { engine: mainThreadEngine, memory: () => ({ used: 80, limit: 100 }) }),
    ).resolves.toHaveLength(32);
  });

  test('times out after 30 s and cancels the attempt', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const engine: Md5Engine = {
      ...mainThreadEngine,
      digest: (_b, _f, o) => ((signal = o?.signal), new Promise<string>(() => {})),
    };
    const result = calculateFileMd5(text('x'), { engine, memory: noMemory, retries: 0 });
    const settled = expect(result).rejects.toThrow('MD5 calculation timed out after 30 seconds');
    await vi.advanceTimersByTimeAsync(29_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
    expect(signal?.aborted).toBe(true);
  });

  test('retries with exponential back-off (500 ms, then 1000 ms) and succeeds', async () => {
    vi.useFakeTimers();
    const digest = vi
      .fn<Md5Engine['digest']>()
      .mockRejectedValueOnce(new Error('worker crashed'))
      .mockRejectedValueOnce(new Error('worker crashed'))
      .mockResolvedValueOnce('5d41402abc4b2a76b9719d911017c592');
    const onRetry = vi.fn();
    const result = calculateFileMd5(text('hello'), { engine: { ...mainThreadEngine, digest }, memory: noMemory, onRetry });
    await vi.advanceTimersByTimeAsync(0);
    expect(digest).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(digest).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(digest).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(999);
    expect(digest).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(digest).toHaveBeenCalledTimes(3);
    await expect(result).resolves.toBe('5d41402abc4b2a76b9719d911017c592');
    expect(onRetry.mock.calls.map((c) => [c[0], c[1]])).toEqual([
      [1, 500],
      [2, 1000],
    ]);
  });

  test('gives up after the last retry with the last error', async () => {
    vi.useFakeTimers();
    const digest = vi.fn<Md5Engine['digest']>().mockRejectedValue(new Error('worker crashed'));
    const result = calculateFileMd5(text('x'), {
      engine: { ...mainThreadEngine, digest },
      memory: noMemory,
      retries: 2,
      baseDelayMs: 100,
    });
    const settled = expect(result).rejects.toMatchObject({ kind: 'failed', message: 'Failed to calculate MD5: worker crashed' });
    await vi.advanceTimersByTimeAsync(100 + 200);
    await settled;
    expect(digest).toHaveBeenCalledTimes(3);
  });

  test('input errors are not retried', async () => {
    const err = await calculateFileMd5(new Blob([]), { engine: mainThreadEngine }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Md5Error);
    expect((err as Md5Error).retryable).toBe(false);
  });
});

describe('hashFileParts (files above 50 MB)', () => {
  test('gives the whole-file MD5 and one MD5 per part in one pass', async () => {
    const bytes = new Uint8Array(25_000).map((_, i) => (i * 7) % 256);
    const blob = new Blob([bytes]);
    const { md5: whole, parts } = await hashFileParts(blob, 10_000, { engine: mainThreadEngine, memory: noMemory });
    expect(whole).toBe(md5(bytes));
    expect(parts).toEqual([md5(bytes.subarray(0, 10_000)), md5(bytes.subarray(10_000, 20_000)), md5(bytes.subarray(20_000))]);
  });

  test('part boundaries inside chunks give the same part digests', async () => {
    const bytes = new Uint8Array(9_000).map((_, i) => i % 13);
    const blob = new Blob([bytes]);
    const expected = { digest: md5(bytes), parts: [0, 2_500, 5_000, 7_500].map((at) => md5(bytes.subarray(at, at + 2_500))) };
    expect(await md5OfBlobParts(blob, 2_500, { chunkBytes: 1_000 })).toEqual(expected);
    expect(await md5OfBlobParts(blob, 2_500, { chunkBytes: 4_096 })).toEqual(expected);
  });

  test('has no 50 MB cap but still rejects empty input', async () => {
    await expect(hashFileParts(new Blob([]), 5, { engine: mainThreadEngine })).rejects.toThrow(Md5Messages.empty);
  });
});
