/**
 * Coffer's MD5 worker: hashes a Blob incrementally over chunks with hash-wasm's WebAssembly MD5
 * (see md5-core.ts), off the main thread so the page stays responsive (product §5 "File hashing").
 *
 * Messages in:
 * - {type: 'file', id, blob, format: 'hex' | 'base64'} -> progress..., then {type: 'done', id, digest}
 * - {type: 'parts', id, blob, partSize} -> progress..., then {type: 'done', id, digest (hex, whole
 *   file), parts (hex MD5 of each partSize slice, in order)}: the big-file path, one pass for both
 * - {type: 'cancel', id}: stops that job between chunks ({type: 'error', id, message: 'cancelled'})
 * Messages out: {type: 'progress', id, loaded (bytes)}, {type: 'done', ..., read: 'reader' | 'this thread'}
 * (who read the file), {type: 'error', id, message}.
 *
 * The file is read by a second worker, this same script started under {@link READER_WORKER_NAME},
 * which streams the Blob and transfers its chunks here (blob-reader.ts), so this thread only hashes.
 * Where a worker cannot start one (or it fails), this thread reads the Blob itself.
 */
import {
  READER_WORKER_NAME,
  remoteChunkReader,
  serveReads,
  type ChunkReader,
  type MessageEnd,
  type ReaderRequest,
  type ReaderResponse,
} from './blob-reader';
import { md5OfBlob, md5OfBlobParts } from './md5-core';

export type Md5WorkerRequest =
  | { type: 'file'; id: number; blob: Blob; format: 'hex' | 'base64' }
  | { type: 'parts'; id: number; blob: Blob; partSize: number }
  | { type: 'cancel'; id: number };

export type Md5WorkerResponse =
  | { type: 'progress'; id: number; loaded: number }
  | { type: 'done'; id: number; digest: string; parts?: string[]; read?: 'reader' | 'this thread' }
  | { type: 'error'; id: number; message: string };

interface WorkerScope {
  name: string;
  location: { href: string };
  postMessage(message: Md5WorkerResponse): void;
  onmessage: ((event: MessageEvent<Md5WorkerRequest>) => void) | null;
}
const scope = self as unknown as WorkerScope;

let reader: ChunkReader | undefined;
let readerBroken = false;
/** The reader worker, started on the first job; undefined where workers cannot start workers. */
function startReader(): ChunkReader | undefined {
  if (reader || typeof Worker === 'undefined') return reader;
  try {
    const worker = new Worker(scope.location.href, { type: 'module', name: READER_WORKER_NAME });
    const remote = remoteChunkReader(worker as unknown as MessageEnd<ReaderResponse, ReaderRequest>);
    worker.onerror = () => {
      // Reads in progress fail (their jobs answer an error); later jobs read on this thread.
      remote.fail(new Error('The file reader failed'));
      worker.terminate();
      reader = undefined;
      readerBroken = true;
    };
    reader = remote.read;
  } catch {
    readerBroken = true;
  }
  return reader;
}

const cancelled = new Set<number>();

if (scope.name === READER_WORKER_NAME) serveReads(scope as unknown as MessageEnd<ReaderRequest, ReaderResponse>);
else
  scope.onmessage = (event) => {
    const msg = event.data;
    if (msg.type === 'cancel') {
      cancelled.add(msg.id);
      return;
    }
    const options = {
      onProgress: (loaded: number) => scope.postMessage({ type: 'progress', id: msg.id, loaded }),
      isCancelled: () => cancelled.has(msg.id),
      reader: readerBroken ? undefined : startReader(),
    };
    const job =
      msg.type === 'file'
        ? md5OfBlob(msg.blob, msg.format, options).then((digest) => ({ digest }))
        : md5OfBlobParts(msg.blob, msg.partSize, options);
    job
      .then((result) =>
        scope.postMessage({ type: 'done', id: msg.id, ...result, read: options.reader ? 'reader' : 'this thread' }),
      )
      .catch((err: unknown) =>
        scope.postMessage({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) }),
      )
      .finally(() => cancelled.delete(msg.id));
  };
