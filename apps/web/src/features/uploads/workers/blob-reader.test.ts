import { Blob as NodeBlob } from 'node:buffer';
import { createHash } from 'node:crypto';
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  READ_AHEAD_CHUNKS,
  remoteChunkReader,
  serveReads,
  type MessageEnd,
  type ReaderRequest,
  type ReaderResponse,
} from './blob-reader';
import { md5OfBlob, md5OfBlobParts } from './md5-core';

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

/** A Blob whose stream yields `chunks` chunks of `chunkSize` bytes and counts the reads. */
function countingBlob(chunkSize: number, chunks: number) {
  const bytes = Uint8Array.from({ length: chunkSize * chunks }, (_, i) => (i * 13 + 5) % 256);
  const state = { reads: 0, cancelled: false };
  const blob = {
    size: bytes.length,
    stream() {
      let at = 0;
      return new ReadableStream<Uint8Array>(
        {
          pull(controller) {
            state.reads += 1;
            if (at >= bytes.length) return controller.close();
            // A view into a larger buffer, as some streams hand out: the reader must copy, not move, it.
            controller.enqueue(bytes.slice(at, at + chunkSize));
            at += chunkSize;
          },
          cancel() {
            state.cancelled = true;
          },
        },
        { highWaterMark: 0 },
      );
    },
  } as unknown as Blob;
  return { blob, bytes, state };
}

const channels: MessageChannel[] = [];
afterEach(() => {
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A reader on one end of a channel and the hashing side's ChunkReader on the other. */
function pair() {
  const channel = new MessageChannel();
  channels.push(channel);
  // Node's ports carry `data` on the event as the browser's do (MessageEvent-like).
  serveReads(channel.port1 as unknown as MessageEnd<ReaderRequest, ReaderResponse>);
  return remoteChunkReader(channel.port2 as unknown as MessageEnd<ReaderResponse, ReaderRequest>);
}

/**
 * Two ends that deliver each message on a later task without cloning it (a fake Blob with its own
 * stream() cannot cross a real MessagePort).
 */
function localPair() {
  type End = { postMessage(m: unknown): void; onmessage: ((e: { data: unknown }) => void) | null };
  const a: End = { onmessage: null, postMessage: (m) => setTimeout(() => b.onmessage?.({ data: m }), 0) };
  const b: End = { onmessage: null, postMessage: (m) => setTimeout(() => a.onmessage?.({ data: m }), 0) };
  serveReads(a as unknown as MessageEnd<ReaderRequest, ReaderResponse>);
  return remoteChunkReader(b as unknown as MessageEnd<ReaderResponse, ReaderRequest>);
}

describe('blob-reader (reading on one thread, hashing on another)', () => {
  it('hands over every chunk in order: the same MD5 as one pass, for the whole file and its parts', async () => {
    const bytes = Uint8Array.from({ length: 100_000 }, (_, i) => (i * 31 + 7) % 256);
    const blob = new NodeBlob([bytes]) as unknown as Blob;
    const { read } = pair();
    const progress: number[] = [];
    expect(await md5OfBlob(blob, 'hex', { reader: read, onProgress: (n) => progress.push(n) })).toBe(md5(bytes));
    expect(progress.at(-1)).toBe(100_000);
    const { digest, parts } = await md5OfBlobParts(blob, 30_000, { reader: read });
    expect(digest).toBe(md5(bytes));
    expect(parts).toEqual([0, 30_000, 60_000, 90_000].map((at) => md5(bytes.subarray(at, at + 30_000))));
  });

  it('hashes an empty blob', async () => {
    const { read } = pair();
    expect(await md5OfBlob(new NodeBlob([]) as unknown as Blob, 'hex', { reader: read })).toBe(md5(new Uint8Array()));
  });

  it('reads at most READ_AHEAD_CHUNKS ahead of the hashing side', async () => {
    const { blob, state } = countingBlob(1000, 20);
    const { read } = localPair();
    const chunks = read(blob)[Symbol.asyncIterator]();
    await chunks.next();
    await new Promise((r) => setTimeout(r, 50));
    // One taken, READ_AHEAD_CHUNKS - 1 + 1 (the ack of the taken one) more in flight: never the whole file.
    expect(state.reads).toBeLessThanOrEqual(READ_AHEAD_CHUNKS + 2);
    await chunks.return!();
  });

  it('stops the reader when the job is cancelled', async () => {
    const { blob, state, bytes } = countingBlob(1000, 50);
    const { read } = localPair();
    let seen = 0;
    await expect(
      md5OfBlob(blob, 'hex', { reader: read, onProgress: () => (seen += 1), isCancelled: () => seen >= 3 }),
    ).rejects.toThrow('cancelled');
    await new Promise((r) => setTimeout(r, 50));
    expect(state.cancelled).toBe(true);
    expect(state.reads).toBeLessThan(bytes.length / 1000);
  });

  it('fails the job with the read error, and fail() ends reads in progress', async () => {
    const failing = {
      size: 10,
      stream: () => new ReadableStream({ pull: (c) => c.error(new Error('file gone')) }),
    } as unknown as Blob;
    const { read, fail } = localPair();
    await expect(md5OfBlob(failing, 'hex', { reader: read })).rejects.toThrow('file gone');
    const { blob } = countingBlob(1000, 5);
    const chunks = read(blob)[Symbol.asyncIterator]();
    fail(new Error('The file reader failed'));
    await expect(chunks.next()).rejects.toThrow('The file reader failed');
  });
});
