/**
 * Reading a Blob on one thread and hashing it on another (issue 16).
 *
 * In the MD5 worker, reading the file through `blob.stream()` costs the hashing thread about a
 * third of its time (50 MB: about 94 ms to hash bytes in memory, 128-136 ms streamed; bench:md5).
 * The MD5 worker therefore starts a second worker, the reader, which streams the Blob and transfers
 * each chunk's ArrayBuffer (a move, not a copy) to the hashing thread, at most
 * {@link READ_AHEAD_CHUNKS} chunks ahead of it; the hashing thread only hashes. Both ends run over
 * any MessagePort-like pair (a Worker and its scope, or a MessageChannel in tests).
 *
 * Protocol (ids are per job):
 * - to the reader: `{type: 'read', id, blob}`, then `{type: 'ack', id}` per chunk taken (one more
 *   chunk may be read), or `{type: 'cancel', id}` (stop reading);
 * - from the reader: `{type: 'chunk', id, buffer}` (transferred), then `{type: 'end', id}`, or
 *   `{type: 'error', id, message}`.
 */

/** The reader worker's `name`: the MD5 worker script runs as the reader when started under it. */
export const READER_WORKER_NAME = 'coffer-md5-reader';
/** Chunks (about 2 MiB each in Chromium) the reader may read before the hashing thread takes them. */
export const READ_AHEAD_CHUNKS = 4;

export type ReaderRequest =
  { type: 'read'; id: number; blob: Blob } | { type: 'ack'; id: number } | { type: 'cancel'; id: number };

export type ReaderResponse =
  | { type: 'chunk'; id: number; buffer: ArrayBuffer }
  | { type: 'end'; id: number }
  | { type: 'error'; id: number; message: string };

/** The end of a message channel: a Worker, a worker's scope or a MessagePort. */
export interface MessageEnd<In, Out> {
  postMessage(message: Out, transfer?: Transferable[]): void;
  onmessage: ((event: MessageEvent<In>) => void) | null;
}

/** A source of a blob's bytes in order, as chunks. */
export type ChunkReader = (blob: Blob) => AsyncIterable<Uint8Array>;

/**
 * The reader's side: answers `read` requests arriving on `end` with the blob's chunks, each chunk's
 * buffer transferred, never more than {@link READ_AHEAD_CHUNKS} unacknowledged.
 */
export function serveReads(end: MessageEnd<ReaderRequest, ReaderResponse>): void {
  const jobs = new Map<number, { credit: number; cancelled: boolean; wake: (() => void) | null }>();
  const readJob = async (id: number, blob: Blob) => {
    const job = { credit: READ_AHEAD_CHUNKS, cancelled: false, wake: null as (() => void) | null };
    jobs.set(id, job);
    const reader = blob.stream().getReader();
    try {
      for (;;) {
        while (job.credit === 0 && !job.cancelled) await new Promise<void>((resolve) => (job.wake = resolve));
        job.wake = null;
        if (job.cancelled) return;
        const { done, value } = await reader.read();
        if (done) {
          end.postMessage({ type: 'end', id });
          return;
        }
        job.credit -= 1;
        // A chunk that owns its whole buffer moves; a view into a larger buffer is copied first.
        const buffer =
          value.byteOffset === 0 && value.byteLength === value.buffer.byteLength
            ? (value.buffer as ArrayBuffer)
            : (value.slice().buffer as ArrayBuffer);
        end.postMessage({ type: 'chunk', id, buffer }, [buffer]);
      }
    } catch (err) {
      end.postMessage({ type: 'error', id, message: err instanceof Error ? err.message : String(err) });
    } finally {
      jobs.delete(id);
      reader.cancel().catch(() => undefined);
    }
  };
  end.onmessage = (event) => {
    const msg = event.data;
    if (msg.type === 'read') {
      void readJob(msg.id, msg.blob);
      return;
    }
    const job = jobs.get(msg.id);
    if (!job) return;
    if (msg.type === 'ack') job.credit += 1;
    else job.cancelled = true;
    job.wake?.();
  };
}

/**
 * The hashing side: a {@link ChunkReader} whose chunks come from a reader on `end`. Leaving the
 * iteration early (a `break`, a throw: a cancelled job) tells the reader to stop.
 * @param onBroken called once if `end` fails (a Worker's error event): the caller stops using it
 */
export function remoteChunkReader(end: MessageEnd<ReaderResponse, ReaderRequest>): {
  read: ChunkReader;
  /** Fails every read in progress with `err` (the reader worker died). */
  fail: (err: Error) => void;
} {
  let nextId = 1;
  const listeners = new Map<number, (msg: ReaderResponse) => void>();
  end.onmessage = (event) => listeners.get(event.data.id)?.(event.data);
  return {
    fail(err) {
      for (const [id, listener] of listeners) listener({ type: 'error', id, message: err.message });
    },
    read: (blob) => ({
      [Symbol.asyncIterator]() {
        const id = nextId++;
        const queue: ReaderResponse[] = [];
        let wake: (() => void) | null = null;
        let finished = false;
        listeners.set(id, (msg) => {
          queue.push(msg);
          wake?.();
        });
        const finish = () => {
          finished = true;
          listeners.delete(id);
        };
        end.postMessage({ type: 'read', id, blob });
        return {
          async next(): Promise<IteratorResult<Uint8Array>> {
            if (finished) return { done: true, value: undefined };
            while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
            wake = null;
            const msg = queue.shift()!;
            if (msg.type === 'end') {
              finish();
              return { done: true, value: undefined };
            }
            if (msg.type === 'error') {
              finish();
              throw new Error(msg.message);
            }
            end.postMessage({ type: 'ack', id });
            return { done: false, value: new Uint8Array(msg.buffer) };
          },
          async return(): Promise<IteratorResult<Uint8Array>> {
            if (!finished) {
              end.postMessage({ type: 'cancel', id });
              finish();
            }
            return { done: true, value: undefined };
          },
        };
      },
    }),
  };
}
