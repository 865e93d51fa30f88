/**
 * The upload calls of product §17 (prefix /sl/v1) and the presigned PUT itself:
 * - upload/resource/url {file_name, size, md5, content_type} -> {upload_id, url} (single PUT)
 * - multipart/upload (same body) -> {upload_id, part_size, part_count}
 * - upload/part/url {upload_id, part_number (from 1)} -> {url, size}
 * - upload/parts {upload_id} -> {parts [{part_number, etag, size}], part_size, part_count} (resume)
 * - complete/upload {upload_id, parts [{part_number, etag}]} -> the resource (verified size + MD5)
 * A presigned PUT answers the part's ETag in a header, as S3 does (read through XMLHttpRequest,
 * which also reports upload progress). Attaching a resource to a collection is a collection call
 * (features/collections/api/add-resource.ts).
 */
import type { Resource } from '@coffer/contract';
import { callApi } from '@/lib/api-client';

export interface StartUploadBody {
  file_name: string;
  size: number;
  md5: string;
  content_type: string;
}

export interface UploadTransport {
  startSingle(body: StartUploadBody, signal?: AbortSignal): Promise<{ upload_id: string; url: string }>;
  startMultipart(
    body: StartUploadBody,
    signal?: AbortSignal,
  ): Promise<{ upload_id: string; part_size: number; part_count: number }>;
  partUrl(uploadId: string, partNumber: number, signal?: AbortSignal): Promise<{ url: string; size: number }>;
  listParts(
    uploadId: string,
    signal?: AbortSignal,
  ): Promise<{ parts: { part_number: number; etag: string; size: number }[]; part_size: number; part_count: number }>;
  complete(uploadId: string, parts: { part_number: number; etag: string }[], signal?: AbortSignal): Promise<Resource>;
  /** PUTs `body` to a presigned URL. @returns the ETag header (quotes kept) */
  put(
    url: string,
    body: Blob,
    options: { contentType?: string; signal?: AbortSignal; onProgress?: (loaded: number) => void },
  ): Promise<string>;
}

/** A failed presigned PUT (network error or non-2xx status). */
export class PutError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'PutError';
  }
}

/** PUT through XMLHttpRequest: upload progress events and the ETag response header. */
export function xhrPut(
  url: string,
  body: Blob,
  options: { contentType?: string; signal?: AbortSignal; onProgress?: (loaded: number) => void },
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    if (options.contentType) xhr.setRequestHeader('Content-Type', options.contentType);
    xhr.upload.onprogress = (e) => options.onProgress?.(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.getResponseHeader('ETag') ?? '');
      else reject(new PutError(`The upload was refused (HTTP ${xhr.status})`, xhr.status));
    };
    xhr.onerror = () => reject(new PutError('Network error while uploading', 0));
    xhr.ontimeout = () => reject(new PutError('The upload timed out', 0));
    const onAbort = () => xhr.abort();
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    xhr.onloadend = () => options.signal?.removeEventListener('abort', onAbort);
    xhr.send(body);
  });
}

/** The real transport: the API calls above and {@link xhrPut}. */
export const httpUploadTransport: UploadTransport = {
  startSingle: (body, signal) => callApi('uploadResourceUrl', body, { signal }),
  startMultipart: (body, signal) => callApi('multipartUpload', body, { signal }),
  partUrl: (uploadId, partNumber, signal) =>
    callApi('uploadPartUrl', { upload_id: uploadId, part_number: partNumber }, { signal }),
  listParts: (uploadId, signal) => callApi('uploadParts', { upload_id: uploadId }, { signal }),
  complete: (uploadId, parts, signal) => callApi('completeUpload', { upload_id: uploadId, parts }, { signal }),
  put: xhrPut,
};
