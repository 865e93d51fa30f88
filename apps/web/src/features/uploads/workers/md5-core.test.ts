import { Blob as NodeBlob } from 'node:buffer';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { md5OfBlob, md5OfBlobParts } from './md5-core';

const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 31 + 7) % 256);
// jsdom's Blob cannot read itself (no arrayBuffer()); Node's can, as the browser's does.
const blobOf = (b: Uint8Array) => new NodeBlob([b]) as unknown as Blob;
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

describe('md5-core (reads the next chunk while hashing the current one)', () => {
  it('hashes a blob over many chunks to the same digest as one pass, reporting progress per chunk', async () => {
    const progress: number[] = [];
    const hex = await md5OfBlob(blobOf(bytes), 'hex', { chunkBytes: 64, onProgress: (n) => progress.push(n) });
    expect(hex).toBe(md5(bytes));
    expect(progress).toHaveLength(Math.ceil(1000 / 64));
    expect(progress.at(-1)).toBe(1000);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('hashes an empty blob', async () => {
    expect(await md5OfBlob(blobOf(new Uint8Array()), 'hex', { chunkBytes: 64 })).toBe(md5(new Uint8Array()));
  });

  it('hashes each part and the whole file in one pass when parts and chunks do not line up', async () => {
    const { digest, parts } = await md5OfBlobParts(blobOf(bytes), 300, { chunkBytes: 64 });
    expect(digest).toBe(md5(bytes));
    expect(parts).toEqual([0, 300, 600, 900].map((at) => md5(bytes.subarray(at, at + 300))));
  });

  it('stops between chunks when cancelled', async () => {
    let chunks = 0;
    const job = md5OfBlob(blobOf(bytes), 'hex', {
      chunkBytes: 64,
      onProgress: () => chunks++,
      isCancelled: () => chunks >= 2,
    });
    await expect(job).rejects.toThrow('cancelled');
    expect(chunks).toBe(2);
  });

  describe('streaming (no chunkBytes: the browser path, blob.stream())', () => {
    // Node's Blob streams one chunk per part it was made of (Chromium streams 2 MiB chunks).
    const big = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 131 + 17) % 256);
    const streamed = (b: Uint8Array) => {
      const pieces: Uint8Array[] = [];
      for (let at = 0; at < b.length; at += 45_000) pieces.push(b.subarray(at, at + 45_000));
      return new NodeBlob(pieces) as unknown as Blob;
    };

    it('hashes the stream to the one-pass digest, reporting progress per streamed chunk up to the size', async () => {
      const progress: number[] = [];
      const hex = await md5OfBlob(streamed(big), 'hex', { onProgress: (n) => progress.push(n) });
      expect(hex).toBe(md5(big));
      expect(progress).toHaveLength(Math.ceil(big.length / 45_000));
      expect(progress.at(-1)).toBe(big.length);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
    });

    it('cuts parts that straddle streamed chunks to the same digests as slices', async () => {
      const { digest, parts } = await md5OfBlobParts(streamed(big), 100_001);
      expect(digest).toBe(md5(big));
      expect(parts).toEqual([0, 100_001, 200_002].map((at) => md5(big.subarray(at, at + 100_001))));
    });

    it('hashes an empty stream', async () => {
      expect(await md5OfBlob(blobOf(new Uint8Array()), 'base64')).toBe(createHash('md5').digest('base64'));
    });

    it('stops between streamed chunks when cancelled', async () => {
      let chunks = 0;
      const job = md5OfBlob(streamed(big), 'hex', { onProgress: () => chunks++, isCancelled: () => chunks >= 2 });
      await expect(job).rejects.toThrow('cancelled');
      expect(chunks).toBe(2);
    });
  });
});
