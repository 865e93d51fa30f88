/**
 * Sending one hashed file (see upload-queue.ts for the whole flow):
 * - {@link uploadSingle}: one presigned PUT (upload/resource/url), then complete/upload;
 * - {@link uploadMultipart}: a multipart upload, resumed from upload/parts when the file already
 *   has one; parts go through presigned PUTs within the queue's shared slots, a failed part is
 *   retried with exponential back-off, a part whose ETag differs from its own MD5 (when known) is
 *   re-sent; then complete/upload with every part's ETag.
 * Both answer the resource complete/upload returns (the server verified size and MD5).
 */
import type { Resource } from '@coffer/contract';
import { ApiError, getErrorMessage } from '@/lib/api-client';
import type { StartUploadBody, UploadTransport } from '../api/uploads';
import { isAbort, type PartSlots } from './part-slots';
import { MAX_PARTS_IN_FLIGHT, normalizeEtag, PART_ATTEMPTS, type UploadItem } from './upload-item';
import type { ProgressSample } from './upload-progress';

/** What the queue keeps of a file between attempts (the multipart upload to resume) and during one. */
export interface Job {
  controller: AbortController;
  uploadId: string | null;
  partSize: number;
  partHashes: string[] | null;
  etags: Map<number, string>;
  inFlight: Map<number, number>;
  acked: number;
  samples: ProgressSample[];
}

/** The queue's side of sending one file. */
export interface SendContext {
  transport: UploadTransport;
  slots: PartSlots;
  /** First back-off delay between part attempts (doubled each time). */
  retryDelayMs: number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** The file as the queue has it now (undefined once removed). */
  item(): UploadItem | undefined;
  patch(change: Partial<UploadItem>): void;
  /** Recomputes the file's uploaded bytes and speed from the job. */
  progress(): void;
}

/** The body of upload/resource/url and multipart/upload. */
export function startBody(item: UploadItem, md5: string): StartUploadBody {
  return { file_name: item.name, size: item.size, md5, content_type: item.file.type || 'application/octet-stream' };
}

/** One presigned PUT of the whole file, then complete/upload. */
export async function uploadSingle(ctx: SendContext, job: Job, md5: string): Promise<Resource> {
  const item = ctx.item()!;
  const { signal } = job.controller;
  ctx.patch({ partCount: 1 });
  const { upload_id, url } = await ctx.transport.startSingle(startBody(item, md5), signal);
  job.uploadId = upload_id;
  await ctx.slots.acquire(signal);
  try {
    await ctx.transport.put(url, item.file, {
      contentType: item.file.type || 'application/octet-stream',
      signal,
      onProgress: (loaded) => {
        job.inFlight.set(1, loaded);
        ctx.progress();
      },
    });
  } finally {
    ctx.slots.release();
  }
  job.inFlight.delete(1);
  job.acked = item.size;
  job.etags.set(1, '');
  ctx.progress();
  ctx.patch({ status: 'completing' });
  return ctx.transport.complete(upload_id, [], signal);
}

/** A multipart upload (new, or resumed from upload/parts), then complete/upload. */
export async function uploadMultipart(ctx: SendContext, job: Job, md5: string): Promise<Resource> {
  const item = ctx.item()!;
  const { signal } = job.controller;
  let partSize: number;
  let partCount: number;
  let listed: Awaited<ReturnType<UploadTransport['listParts']>> | null = null;
  if (job.uploadId) {
    try {
      listed = await ctx.transport.listParts(job.uploadId, signal);
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
    const started = await ctx.transport.startMultipart(startBody(item, md5), signal);
    job.uploadId = started.upload_id;
    partSize = started.part_size;
    partCount = started.part_count;
  }
  if (job.partHashes && job.partSize !== partSize) job.partHashes = null;
  job.partSize = partSize;
  ctx.patch({ partCount, partsDone: job.etags.size });
  ctx.progress();

  const uploadId = job.uploadId!;
  const todo: number[] = [];
  for (let n = 1; n <= partCount; n++) if (!job.etags.has(n)) todo.push(n);

  const sendPart = async (n: number) => {
    const start = (n - 1) * partSize;
    const blob = item.file.slice(start, Math.min(item.size, start + partSize));
    for (let attempt = 1; ; attempt++) {
      await ctx.slots.acquire(signal);
      try {
        const { url } = await ctx.transport.partUrl(uploadId, n, signal);
        const etag = await ctx.transport.put(url, blob, {
          signal,
          onProgress: (loaded) => {
            job.inFlight.set(n, loaded);
            ctx.progress();
          },
        });
        const expected = job.partHashes?.[n - 1];
        if (expected && normalizeEtag(etag) !== expected) throw new Error(`Part ${n} arrived corrupted (ETag mismatch)`);
        job.inFlight.delete(n);
        job.etags.set(n, etag);
        job.acked += blob.size;
        ctx.progress();
        return;
      } catch (err) {
        job.inFlight.delete(n);
        ctx.progress();
        if (isAbort(err) || attempt >= PART_ATTEMPTS) {
          if (isAbort(err)) throw err;
          throw new Error(`Part ${n} failed after ${attempt} attempts: ${getErrorMessage(err, 'upload error')}`, {
            cause: err,
          });
        }
        ctx.patch({ partRetries: (ctx.item()?.partRetries ?? 0) + 1 });
      } finally {
        ctx.slots.release();
      }
      await ctx.sleep(ctx.retryDelayMs * 2 ** (attempt - 1), signal);
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

  ctx.patch({ status: 'completing' });
  const parts = [...job.etags.entries()].sort((a, b) => a[0] - b[0]).map(([part_number, etag]) => ({ part_number, etag }));
  return ctx.transport.complete(uploadId, parts, signal);
}
