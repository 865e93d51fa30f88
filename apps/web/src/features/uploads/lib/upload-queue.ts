/**
 * The uploader: hashes and uploads files, several at once, with the progress the screen shows.
 *
 * Per file: MD5 first (product §5 rules up to 50 MB; above that one streaming pass gives the whole-file
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
 * The queue is an external store for useSyncExternalStore: `subscribe` + `getSnapshot`. The item
 * shape and limits are in upload-item.ts, the part slots in part-slots.ts, sending a hashed file in
 * send-file.ts.
 */
import { MD5_MAX_FILE_BYTES, partSizeFor } from '@coffer/contract/constants';
import { getErrorMessage } from '@/lib/api-client';
import { httpUploadTransport, type UploadTransport } from '../api/uploads';
import { calculateFileMd5, hashFileParts, Md5Messages } from './file-md5';
import { defaultSleep, isAbort, PartSlots } from './part-slots';
import { uploadMultipart, uploadSingle, type Job, type SendContext } from './send-file';
import {
  MAX_FILES_IN_FLIGHT,
  MAX_PARTS_IN_FLIGHT,
  MULTIPART_THRESHOLD_BYTES,
  newUploadItem,
  type UploadItem,
  type UploadSnapshot,
} from './upload-item';
import { addSample, speedOf, summarize } from './upload-progress';

export {
  MAX_FILES_IN_FLIGHT,
  MAX_PARTS_IN_FLIGHT,
  MULTIPART_THRESHOLD_BYTES,
  normalizeEtag,
  PART_ATTEMPTS,
  type UploadItem,
  type UploadSnapshot,
  type UploadStatus,
} from './upload-item';

export interface UploadQueueOptions {
  transport?: UploadTransport;
  hashWhole?: typeof calculateFileMd5;
  hashParts?: typeof hashFileParts;
  now?: () => number;
  /** First back-off delay between part attempts (doubled each time). */
  retryDelayMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

let seq = 0;

export class UploadQueue {
  private items: UploadItem[] = [];
  private jobs = new Map<string, Job>();
  private listeners = new Set<() => void>();
  private snapshot: UploadSnapshot = { items: [], overall: summarize([]) };
  private readonly slots = new PartSlots(MAX_PARTS_IN_FLIGHT);
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

  /**
   * Queues files; @returns their ids. An empty file is refused at once, before any hashing or
   * upload, with the spec's 'Cannot calculate MD5 for empty file' (product §5): its row says so and
   * offers only Remove (a retry could never succeed).
   */
  add(files: Iterable<File>): string[] {
    const added: UploadItem[] = [];
    for (const file of files) {
      const item = newUploadItem(`u${++seq}`, file);
      added.push(file.size === 0 ? { ...item, status: 'failed', error: Md5Messages.empty, refused: true } : item);
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
    if (!item || item.refused || (item.status !== 'failed' && item.status !== 'cancelled')) return;
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
      const ctx = this.sendContext(id, job);
      const resource = multipart ? await uploadMultipart(ctx, job, md5) : await uploadSingle(ctx, job, md5);
      this.patch(id, { status: 'done', resource, uploadedBytes: item.size, speed: 0, error: null });
    } catch (err) {
      if (isAbort(err) || this.item(id)?.status === 'cancelled') return;
      this.patch(id, { status: 'failed', speed: 0, error: getErrorMessage(err, 'Upload failed') });
    }
  }

  private sendContext(id: string, job: Job): SendContext {
    return {
      transport: this.transport,
      slots: this.slots,
      retryDelayMs: this.retryDelayMs,
      sleep: this.sleep,
      item: () => this.item(id),
      patch: (change) => this.patch(id, change),
      progress: () => this.progress(id, job),
    };
  }
}
