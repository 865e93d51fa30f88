/**
 * The bridge to Coffer's MD5 worker (features/uploads/workers/md5.worker.ts): one lazily started worker per
 * page, jobs matched by id, cancellation through an AbortSignal. Tests replace the engine with
 * their own {@link Md5Engine}; jsdom has no Worker.
 */
import type { Md5WorkerRequest, Md5WorkerResponse } from '../workers/md5.worker';

export interface Md5JobOptions {
  signal?: AbortSignal;
  /** Bytes hashed so far. */
  onProgress?: (loaded: number) => void;
}

/** What hashes bytes: the worker in the browser, a fake in tests. */
export interface Md5Engine {
  /** MD5 of the whole blob, hex or base64. */
  digest(blob: Blob, format: 'hex' | 'base64', options?: Md5JobOptions): Promise<string>;
  /** MD5 (hex) of the whole blob and of each `partSize` slice, in one pass. */
  digestParts(blob: Blob, partSize: number, options?: Md5JobOptions): Promise<{ digest: string; parts: string[] }>;
}

type Pending = {
  resolve: (value: { digest: string; parts?: string[] }) => void;
  reject: (err: Error) => void;
  onProgress?: (loaded: number) => void;
};

let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

function getWorker(): Worker {
  if (worker) return worker;
  worker = new Worker(new URL('../workers/md5.worker.ts', import.meta.url), { type: 'module', name: 'coffer-md5' });
  worker.onmessage = (event: MessageEvent<Md5WorkerResponse>) => {
    const msg = event.data;
    const job = pending.get(msg.id);
    if (!job) return;
    if (msg.type === 'progress') job.onProgress?.(msg.loaded);
    else {
      pending.delete(msg.id);
      if (msg.type === 'done') job.resolve({ digest: msg.digest, parts: msg.parts });
      else job.reject(new Error(msg.message));
    }
  };
  worker.onerror = (event) => {
    // A crashed worker fails every job it held; the next job starts a fresh one.
    const err = new Error(event.message || 'The MD5 worker failed');
    for (const job of pending.values()) job.reject(err);
    pending.clear();
    worker?.terminate();
    worker = null;
  };
  return worker;
}

type JobRequest = { type: 'file'; blob: Blob; format: 'hex' | 'base64' } | { type: 'parts'; blob: Blob; partSize: number };

function run(request: JobRequest, options: Md5JobOptions = {}) {
  return new Promise<{ digest: string; parts?: string[] }>((resolve, reject) => {
    if (options.signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const w = getWorker();
    const id = nextId++;
    pending.set(id, { resolve, reject, onProgress: options.onProgress });
    options.signal?.addEventListener(
      'abort',
      () => {
        if (!pending.has(id)) return;
        pending.delete(id);
        w.postMessage({ type: 'cancel', id } satisfies Md5WorkerRequest);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
    w.postMessage({ ...request, id } as Md5WorkerRequest);
  });
}

/** The worker-backed engine used in the browser. */
export const workerMd5Engine: Md5Engine = {
  digest: async (blob, format, options) => (await run({ type: 'file', blob, format }, options)).digest,
  digestParts: async (blob, partSize, options) => {
    const r = await run({ type: 'parts', blob, partSize }, options);
    return { digest: r.digest, parts: r.parts ?? [] };
  },
};
