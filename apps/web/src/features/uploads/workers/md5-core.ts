/**
 * The hashing loops of Coffer's MD5 worker, kept apart from the message plumbing so they can be
 * tested and benchmarked: hash-wasm's WebAssembly MD5 fed chunk by chunk from a Blob's stream (never
 * the whole file in memory).
 */
import { createMD5, type IHasher } from 'hash-wasm';
import type { ChunkReader } from './blob-reader';

/** Bytes read and hashed per step when the blob is read in slices (see `stream`). */
export const CHUNK_BYTES = 4 * 1024 * 1024;

export interface StreamOptions {
  /** Called after each chunk with the bytes hashed so far. */
  onProgress?: (loaded: number) => void;
  /** Checked between chunks; true stops the job with an Error('cancelled'). */
  isCancelled?: () => boolean;
  /** Read the blob in slices of this many bytes instead of streaming it (tests; Blobs without stream()). */
  chunkBytes?: number;
  /**
   * Where the bytes come from instead: another thread that reads the blob and hands its chunks
   * over (blob-reader.ts), so this thread only hashes.
   */
  reader?: ChunkReader;
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

/**
 * Feeds `onChunk` the blob's bytes in order, reporting progress and checking for cancellation
 * between chunks.
 *
 * With `reader`, the chunks come from it (another thread reads the blob). Otherwise, without
 * `chunkBytes`, where the Blob can stream (every browser, and Node), the bytes come from
 * `blob.stream()`: the browser reads ahead into the stream's queue while the current chunk is
 * hashed, and its chunks (2 MiB in Chromium) arrive without a copy. In Chromium 156 this read
 * 50 MB at about 1,200 MB/s against 400-500 MB/s for 4 MiB `slice().arrayBuffer()` reads (bench:md5
 * and bench/README.md). With `chunkBytes`, or where the Blob cannot stream (jsdom), it reads
 * `chunkBytes` slices, starting the next read before the current chunk is hashed.
 * @throws Error('cancelled') between chunks when `isCancelled()` turns true; a failed read rejects.
 */
async function stream(blob: Blob, options: StreamOptions, onChunk: (bytes: Uint8Array) => void): Promise<void> {
  if (options.reader) {
    let loaded = 0;
    // Leaving the loop (cancelled, a failed hash) tells the reader to stop.
    for await (const chunk of options.reader(blob)) {
      if (options.isCancelled?.()) throw new Error('cancelled');
      onChunk(chunk);
      loaded += chunk.byteLength;
      options.onProgress?.(loaded);
    }
    return;
  }
  if (options.chunkBytes === undefined && typeof blob.stream === 'function') {
    const reader = blob.stream().getReader();
    let loaded = 0;
    try {
      for (;;) {
        if (options.isCancelled?.()) throw new Error('cancelled');
        const { done, value } = await reader.read();
        if (done) return;
        onChunk(value);
        loaded += value.byteLength;
        options.onProgress?.(loaded);
      }
    } finally {
      // Stops the browser's read-ahead when the job ends early; a no-op after the last chunk.
      reader.cancel().catch(() => undefined);
    }
  }
  const step = options.chunkBytes ?? CHUNK_BYTES;
  const read = (offset: number): Promise<ArrayBuffer> => {
    const pending = blob.slice(offset, Math.min(blob.size, offset + step)).arrayBuffer();
    // A read still in flight when the job stops (cancel, error) must not surface as unhandled.
    pending.catch(() => undefined);
    return pending;
  };
  let next = blob.size > 0 ? read(0) : null;
  for (let offset = 0; next !== null; offset += step) {
    if (options.isCancelled?.()) throw new Error('cancelled');
    const buffer = await next;
    next = offset + step < blob.size ? read(offset + step) : null;
    onChunk(new Uint8Array(buffer));
    options.onProgress?.(Math.min(blob.size, offset + buffer.byteLength));
  }
}

/** MD5 of a blob as lower-case hex or base64. */
export async function md5OfBlob(blob: Blob, format: 'hex' | 'base64', options: StreamOptions = {}): Promise<string> {
  const md5 = (await createMD5()).init();
  await stream(blob, options, (bytes) => md5.update(bytes));
  return format === 'base64' ? toBase64(md5.digest('binary')) : md5.digest('hex');
}

/** MD5 (hex) of the whole blob and of each `partSize` slice, in one pass. */
export async function md5OfBlobParts(
  blob: Blob,
  partSize: number,
  options: StreamOptions = {},
): Promise<{ digest: string; parts: string[] }> {
  if (!(partSize > 0)) throw new Error('partSize must be positive');
  const whole: IHasher = (await createMD5()).init();
  const part: IHasher = (await createMD5()).init();
  const parts: string[] = [];
  let inPart = 0;
  await stream(blob, options, (bytes) => {
    whole.update(bytes);
    let at = 0;
    while (at < bytes.length) {
      const take = Math.min(bytes.length - at, partSize - inPart);
      part.update(bytes.subarray(at, at + take));
      inPart += take;
      at += take;
      if (inPart === partSize) {
        parts.push(part.digest('hex'));
        part.init();
        inPart = 0;
      }
    }
  });
  if (inPart > 0) parts.push(part.digest('hex'));
  return { digest: whole.digest('hex'), parts };
}
