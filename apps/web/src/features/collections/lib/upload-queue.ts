/**
 * The uploader: hashes and uploads files, several at once, with the progress the screen shows.
 *
 * Per file: MD5 first (SPEC 5 rules up to 50 MB; above that one streaming pass gives the whole-file
 * MD5 and each part's MD5, see docs/decisions/0006-market-upload-hashing.md), then
 * - files up to MULTIPART_THRESHOLD_BYTES: one presigned PUT (upload/resource/url), complete;
 * - larger files: a multipart upload whose parts go through presigned PUTs with at most
 *   {@link MAX_PARTS_IN_FLIGHT} parts in flight over all files; a failed part is retried with
 *   exponential back-off; a part whose ETag differs from its own MD5 (when known) is re-sent;
 * - `retry(id)` after a failure resumes: upload/parts (list-parts) tells which parts arrived, only
 *   the others are sent, then complete/upload.
 * `cancel(id)` aborts hashing and every PUT of that file. A file is done once complete/upload
 * answers its resource (the server verified size and MD5).
 *
 * The queue is an external store for useSyncExternalStore: `subscribe` + `getSnapshot`.
 */
import type { Resource } from '@coffer/contract';
import { MD5_MAX_FILE_BYTES, partSizeFor } from '@coffer/contract/constants';
import { ApiError, getErrorMessage } from '../../../lib/api-client';
import { httpUploadTransport, type UploadTransport } from '../api/uploads';
import { calculateFileMd5, hashFileParts, Md5Error } from './file-md5';
import { addSample, speedOf, summarize, type OverallProgress, type ProgressSample } from './upload-progress';

/** Files above this go multipart. */
export const MULTIPART_THRESHOLD_BYTES = 16 * 1024 * 1024;
/** Part PUTs in flight at once, over all files. */
export const MAX_PARTS_IN_FLIGHT = 4;
/** Files hashed/uploaded at the same time. */
export const MAX_FILES_IN_FLIGHT = 2;
/** Attempts per part before the file fails (then `retry` resumes it). */
export const PART_ATTEMPTS = 3;

export type UploadStatus = 'queued' | 'hashing' | 'uploading' | 'completing' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  id: string;
  file: File;
  name: string;
  size: number;
  status: UploadStatus;
  /** Bytes hashed so far. */
  hashedBytes: number;
  /** Bytes the storage acknowledged plus bytes of parts in flight. */
  uploadedBytes: number;
  /** Bytes per second over the last seconds. */
  speed: number;
  mode: 'single' | 'multipart' | null;
  partCount: number;
  partsDone: number;
  /** Parts re-sent after a failure (retries), shown as a hint. */
  partRetries: number;
  md5: string | null;
  error: string | null;
  resource: Resource | null;
}

export interface UploadSnapshot {
  items: UploadItem[];
  overall: OverallProgress;
}

export const normalizeEtag = (etag: string): string => etag.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();

export interface UploadQueueOptions {
  transport?: UploadTransport;
  hashWhole?: typeof calculateFileMd5;
  hashParts?: typeof hashFileParts;
  now?: () => number;
  /** First back-off delay between part attempts (doubled each time). */
  retryDelayMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface Job {
  controller: AbortController;
  uploadId: string | null;
  partSize: number;
  partHashes: string[] | null;
  etags: Map<number, string>;
  inFlight: Map<number, number>;
  acked: number;
  samples: ProgressSample[];
}

const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new DOMException('Aborted', 'AbortError'));
      },
      { once: true },
    );
  });

const isAbort = (err: unknown) =>
  (err instanceof DOMException && err.name === 'AbortError') || (err instanceof Md5Error && err.kind === 'aborted');

let seq = 0;

export class UploadQueue {
  private items: UploadItem[] = [];
  private jobs = new Map<string, Job>();
  private listeners = new Set<() => void>();
  private snapshot: UploadSnapshot = { items: [], overall: summarize([]) };
  private partSlots = MAX_PARTS_IN_FLIGHT;
  private partWaiters: (() => void)[] = [];
  private running = 0;
  private readonly transport: UploadTransport;
  private readonly hashWhole: typeof calculateFileMd5;
  private readonly hashParts: typeof hashFileParts;
  private readonly now: () => number;
  private readonly retryDelayMs: number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(options: UploadQueueOptions = {}) {
    this.transport = options.transport ?? httpUploadTransport;
    this.hashWhole = options.hashWhole ?? calculateFileMd5;
    this.hashParts = options.hashParts ?? hashFileParts;
    this.now = options.now ?? (() => performance.now());
    this.retryDelayMs = options.retryDelayMs ?? 1_000;
    this.sleep = options.sleep ?? defaultSleep;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): UploadSnapshot => this.snapshot;

  private emit(): void {
    this.snapshot = { items: this.items, overall: summarize(this.items) };
    for (const l of this.listeners) l();
  }

  private patch(id: string, change: Partial<UploadItem>): void {
    this.items = this.items.map((i) => (i.id === id ? { ...i, ...change } : i));
    this.emit();
  }

  private item(id: string): UploadItem | undefined {
    return this.items.find((i) => i.id === id);
  }

  /** Queues files; @returns their ids */
  add(files: Iterable<File>): string[] {
    const added: UploadItem[] = [];
    for (const file of files) {
      added.push({
        id: `u${++seq}`,
        file,
        name: file.name,
        size: file.size,
        status: 'queued',
        hashedBytes: 0,
        uploadedBytes: 0,
        speed: 0,
        mode: null,
        partCount: 0,
        partsDone: 0,
        partRetries: 0,
        md5: null,
        error: null,
        resource: null,
      });
    }
    this.items = [...this.items, ...added];
    this.emit();
    this.pump();
    return added.map((i) => i.id);
  }

  /** Stops a file's hashing and uploads. */
  cancel(id: string): void {
    const item = this.item(id);
    if (!item || item.status === 'done' || item.status === 'cancelled') return;
    this.jobs.get(id)?.controller.abort();
    this.patch(id, { status: 'cancelled', speed: 0, error: null });
  }

  /** Forgets a file that is not uploading. */
  remove(id: string): void {
    this.cancel(id);
    this.jobs.delete(id);
    this.items = this.items.filter((i) => i.id !== id);
    this.emit();
  }

  /** Resumes a failed or cancelled file (list-parts, then only the missing parts). */
  retry(id: string): void {
    const item = this.item(id);
    if (!item || (item.status !== 'failed' && item.status !== 'cancelled')) return;
    this.patch(id, { status: 'queued', error: null });
    this.pump();
  }

  /** Resolves once no file is waiting, hashing or uploading. */
  whenSettled(): Promise<UploadItem[]> {
    return new Promise((resolve) => {
      const check = () => {
        if (summarize(this.items).active === 0) {
          unsubscribe();
          resolve(this.items);
          return true;
        }
        return false;
      };
      const unsubscribe = this.subscribe(() => void check());
      check();
    });
  }

  private pump(): void {
    while (this.running < MAX_FILES_IN_FLIGHT) {
      const next = this.items.find((i) => i.status === 'queued');
      if (!next) return;
      this.running++;
      this.patch(next.id, { status: 'hashing' });
      void this.process(next.id).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async acquirePart(signal: AbortSignal): Promise<void> {
    while (this.partSlots === 0) {
      await new Promise<void>((resolve) => this.partWaiters.push(resolve));
      if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
    }
    this.partSlots--;
  }

  private releasePart(): void {
    this.partSlots++;
    this.partWaiters.shift()?.();
  }

  private progress(id: string, job: Job): void {
    const inFlight = [...job.inFlight.values()].reduce((s, b) => s + b, 0);
    const bytes = job.acked + inFlight;
    job.samples = addSample(job.samples, { t: this.now(), bytes });
    const item = this.item(id);
    if (!item || item.status === 'cancelled') return;
    this.patch(id, { uploadedBytes: Math.min(item.size, bytes), speed: speedOf(job.samples), partsDone: job.etags.size });
  }

  private async process(id: string): Promise<void> {
    const item = this.item(id);
    if (!item) return;
    const prev = this.jobs.get(id);
    const job: Job = {
      controller: new AbortController(),
      uploadId: prev?.uploadId ?? null,
      partSize: prev?.partSize ?? 0,
      partHashes: prev?.partHashes ?? null,
      etags: new Map(),
      inFlight: new Map(),
      acked: 0,
      samples: [],
    };
    this.jobs.set(id, job);
    const { signal } = job.controller;
    try {
      let md5 = item.md5;
      const multipart = item.size > MULTIPART_THRESHOLD_BYTES;
      if (!md5) {
        const onProgress = (hashedBytes: number) => this.patch(id, { hashedBytes });
        if (item.size > MD5_MAX_FILE_BYTES) {
          // The server's rule (contract upload-rules.ts), so the part hashes match the parts it asks for.
          const partSize = partSizeFor(item.size);
          const r = await this.hashParts(item.file, partSize, { signal, onProgress });
          md5 = r.md5;
          job.partSize = partSize;
          job.partHashes = r.parts;
        } else {
          md5 = await this.hashWhole(item.file, { signal, onProgress });
        }
        this.patch(id, { md5, hashedBytes: item.size });
      }
      if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
      this.patch(id, { status: 'uploading', mode: multipart ? 'multipart' : 'single' });
      const resource = multipart ? await this.uploadMultipart(id, job, md5) : await this.uploadSingle(id, job, md5);
      this.patch(id, { status: 'done', resource, uploadedBytes: item.size, speed: 0, error: null });
    } catch (err) {
      if (isAbort(err) || this.item(id)?.status === 'cancelled') return;
      this.patch(id, { status: 'failed', speed: 0, error: getErrorMessage(err, 'Upload failed') });
    }
  }

  private body(item: UploadItem, md5: string) {
    return { file_name: item.name, size: item.size, md5, content_type: item.file.type || 'application/octet-stream' };
  }

  private async uploadSingle(id: string, job: Job, md5: string): Promise<Resource> {
    const item = this.item(id)!;
    const { signal } = job.controller;
    this.patch(id, { partCount: 1 });
    const { upload_id, url } = await this.transport.startSingle(this.body(item, md5), signal);
    job.uploadId = upload_id;
    await this.acquirePart(signal);
    try {
      await this.transport.put(url, item.file, {
        contentType: item.file.type || 'application/octet-stream',
        signal,
        onProgress: (loaded) => {
          job.inFlight.set(1, loaded);
          this.progress(id, job);
        },
      });
    } finally {
      this.releasePart();
    }
    job.inFlight.delete(1);
    job.acked = item.size;
    job.etags.set(1, '');
    this.progress(id, job);
    this.patch(id, { status: 'completing' });
    return this.transport.complete(upload_id, [], signal);
  }

  private async uploadMultipart(id: string, job: Job, md5: string): Promise<Resource> {
    const item = this.item(id)!;
    const { signal } = job.controller;
    let partSize: number;
    let partCount: number;
    let listed: Awaited<ReturnType<UploadTransport['listParts']>> | null = null;
    if (job.uploadId) {
      try {
        listed = await this.transport.listParts(job.uploadId, signal);
      } catch (err) {
        // A failed or vanished upload cannot be resumed: start a new one.
        if (!(err instanceof ApiError && (err.status === 404 || err.status === 409))) throw err;
        job.uploadId = null;
      }
    }
    if (listed) {
      // Resume: storage says which parts arrived (S3 ListParts); keep those of the right size.
      partSize = listed.part_size;
      partCount = listed.part_count;
      for (const p of listed.parts) {
        const expected = p.part_number < partCount ? partSize : item.size - partSize * (partCount - 1);
        if (p.size === expected) {
          job.etags.set(p.part_number, p.etag);
          job.acked += p.size;
        }
      }
    } else {
      const started = await this.transport.startMultipart(this.body(item, md5), signal);
      job.uploadId = started.upload_id;
      partSize = started.part_size;
      partCount = started.part_count;
    }
    if (job.partHashes && job.partSize !== partSize) job.partHashes = null;
    job.partSize = partSize;
    this.patch(id, { partCount, partsDone: job.etags.size });
    this.progress(id, job);

    const uploadId = job.uploadId!;
    const todo: number[] = [];
    for (let n = 1; n <= partCount; n++) if (!job.etags.has(n)) todo.push(n);

    const sendPart = async (n: number) => {
      const start = (n - 1) * partSize;
      const blob = item.file.slice(start, Math.min(item.size, start + partSize));
      for (let attempt = 1; ; attempt++) {
        await this.acquirePart(signal);
        try {
          const { url } = await this.transport.partUrl(uploadId, n, signal);
          const etag = await this.transport.put(url, blob, {
            signal,
            onProgress: (loaded) => {
              job.inFlight.set(n, loaded);
              this.progress(id, job);
            },
          });
          const expected = job.partHashes?.[n - 1];
          if (expected && normalizeEtag(etag) !== expected) throw new Error(`Part ${n} arrived corrupted (ETag mismatch)`);
          job.inFlight.delete(n);
          job.etags.set(n, etag);
          job.acked += blob.size;
          this.progress(id, job);
          return;
        } catch (err) {
          job.inFlight.delete(n);
          this.progress(id, job);
          if (isAbort(err) || attempt >= PART_ATTEMPTS) {
            if (isAbort(err)) throw err;
            throw new Error(`Part ${n} failed after ${attempt} attempts: ${getErrorMessage(err, 'upload error')}`, {
              cause: err,
            });
          }
          this.patch(id, { partRetries: (this.item(id)?.partRetries ?? 0) + 1 });
        } finally {
          this.releasePart();
        }
        await this.sleep(this.retryDelayMs * 2 ** (attempt - 1), signal);
      }
    };

    // Workers pull part numbers; the shared slots keep at most MAX_PARTS_IN_FLIGHT PUTs open.
    let cursor = 0;
    let failure: unknown = null;
    const lane = async () => {
      while (cursor < todo.length && !failure) {
        const n = todo[cursor++]!;
        try {
          await sendPart(n);
        } catch (err) {
          failure ??= err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(MAX_PARTS_IN_FLIGHT, todo.length) }, lane));
    if (failure) throw failure;

    this.patch(id, { status: 'completing' });
    const parts = [...job.etags.entries()].sort((a, b) => a[0] - b[0]).map(([part_number, etag]) => ({ part_number, etag }));
    return this.transport.complete(uploadId, parts, signal);
  }
}
