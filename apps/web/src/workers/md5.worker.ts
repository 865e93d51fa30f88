/**
 * Coffer's MD5 worker: hashes a Blob incrementally over chunks with hash-wasm's WebAssembly MD5,
 * off the main thread so the page stays responsive (SPEC 5 "File hashing").
 *
 * Messages in:
 * - {type: 'file', id, blob, format: 'hex' | 'base64'} -> progress..., then {type: 'done', id, digest}
 * - {type: 'parts', id, blob, partSize} -> progress..., then {type: 'done', id, digest (hex, whole
 *   file), parts (hex MD5 of each partSize slice, in order)}: the big-file path, one pass for both
 * - {type: 'cancel', id}: stops that job between chunks ({type: 'error', id, message: 'cancelled'})
 * Messages out: {type: 'progress', id, loaded (bytes)}, {type: 'done', ...}, {type: 'error', id, message}.
 */
import { createMD5, type IHasher } from 'hash-wasm';

/** Bytes read and hashed per step; progress is reported after each. */
const CHUNK_BYTES = 4 * 1024 * 1024;

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

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

class Cancelled extends Error {}

/** Feeds `blob` to every hasher chunk by chunk; `onChunk` sees each chunk's offset and bytes. */
async function stream(id: number, blob: Blob, onChunk: (offset: number, bytes: Uint8Array) => void): Promise<void> {
  for (let offset = 0; offset < blob.size; offset += CHUNK_BYTES) {
    if (cancelled.has(id)) throw new Cancelled('cancelled');
    const bytes = new Uint8Array(await blob.slice(offset, Math.min(blob.size, offset + CHUNK_BYTES)).arrayBuffer());
    onChunk(offset, bytes);
    scope.postMessage({ type: 'progress', id, loaded: Math.min(blob.size, offset + bytes.length) });
  }
}

async function hashFile(id: number, blob: Blob, format: 'hex' | 'base64'): Promise<string> {
  const md5 = await createMD5();
  md5.init();
  await stream(id, blob, (_offset, bytes) => md5.update(bytes));
  return format === 'base64' ? toBase64(md5.digest('binary')) : md5.digest('hex');
}

async function hashParts(id: number, blob: Blob, partSize: number): Promise<{ digest: string; parts: string[] }> {
  const whole: IHasher = (await createMD5()).init();
  const part: IHasher = (await createMD5()).init();
  const parts: string[] = [];
  let inPart = 0;
  await stream(id, blob, (_offset, bytes) => {
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

scope.onmessage = (event) => {
  const msg = event.data;
  if (msg.type === 'cancel') {
    cancelled.add(msg.id);
    return;
  }
  const job = msg.type === 'file' ? hashFile(msg.id, msg.blob, msg.format).then((digest) => ({ digest })) : hashParts(msg.id, msg.blob, msg.partSize);
  job
    .then((result) => scope.postMessage({ type: 'done', id: msg.id, ...result }))
    .catch((err: unknown) => scope.postMessage({ type: 'error', id: msg.id, message: err instanceof Error ? err.message : String(err) }))
    .finally(() => cancelled.delete(msg.id));
};
