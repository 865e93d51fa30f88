/**
 * Coffer's MD5 worker: hashes a Blob incrementally over chunks with hash-wasm's WebAssembly MD5
 * (see md5-core.ts), off the main thread so the page stays responsive (product §5 "File hashing").
 *
 * Messages in:
 * - {type: 'file', id, blob, format: 'hex' | 'base64'} -> progress..., then {type: 'done', id, digest}
 * - {type: 'parts', id, blob, partSize} -> progress..., then {type: 'done', id, digest (hex, whole
 *   file), parts (hex MD5 of each partSize slice, in order)}: the big-file path, one pass for both
 * - {type: 'cancel', id}: stops that job between chunks ({type: 'error', id, message: 'cancelled'})
 * Messages out: {type: 'progress', id, loaded (bytes)}, {type: 'done', ...}, {type: 'error', id, message}.
 */
import { md5OfBlob, md5OfBlobParts } from './md5-core';

export type Md5WorkerRequest =
  | { type: 'file'; id: number; blob: Blob; format: 'hex' | 'base64' }
  | { type: 'parts'; id: number; blob: Blob; partSize: number }
  | { type: 'cancel'; id: number };

export type Md5WorkerResponse =
  | { type: 'progress'; id: number; loaded: number }
  | { type: 'done'; id: number; digest: string; parts?: string[] }
  | { type: 'error'; id: number; message: string };

interface WorkerScope {
  postMessage(message: Md5WorkerResponse): void;
  onmessage: ((event: MessageEvent<Md5WorkerRequest>) => void) | null;
}
const scope = self as unknown as WorkerScope;

const cancelled = new Set<number>();

scope.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    return;
  }
  const options = {
    onProgress: (loaded: number) => scope.postMessage({ type: 'progress', id: msg.id, loaded }),
    isCancelled: () => cancelled.has(msg.id),
  };
  const job = msg.type === 'file' ? md5OfBlob(msg.blob, msg.format, options).then((digest) => ({ digest })) : md5OfBlobParts(msg.blob, msg.partSize, options);
  job
    .then((result) => scope.postMessage({ type: 'done', id: msg.id, ...result }))
    .catch((err: unknown) => scope.postMessage({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) }))
    .finally(() => cancelled.delete(msg.id));
};
