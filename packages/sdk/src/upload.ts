/**
 * Uploading a file with the multipart flow (docs/uploads.md "Uploads"): the file's MD5 is computed
 * first (streamed), then `multipart/upload {file_name, size, md5, content_type}` answers the
 * `upload_id`, `part_size` (>= 5 MiB) and `part_count`; each part gets a presigned URL from
 * `upload/part/url` and is PUT (every part but the last has exactly `part_size` bytes; the PUT
 * answers the part's ETag); `complete/upload` with every `{part_number, etag}` assembles the file,
 * and the server checks its size and MD5 against the declared ones. Parts go one at a time.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { CofferApiError, type CallData, type CofferClient } from './client';

/** A completed upload's resource, as `complete/upload` answers it. */
export type UploadedResource = CallData<'/api/sl/v1/complete/upload'>;

/** Lower-case hex MD5 of the file at `filePath`, read as a stream. */
export async function md5OfFile(filePath: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** A content type from the file name's extension (`application/octet-stream` when unknown). */
export function contentTypeOf(fileName: string): string {
  const types: Record<string, string> = {
    '.txt': 'text/plain',
    '.md': 'text/markdown',
    '.csv': 'text/csv',
    '.json': 'application/json',
    '.pdf': 'application/pdf',
    '.zip': 'application/zip',
    '.png': 'image/png',
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.gif': 'image/gif',
    '.webp': 'image/webp',
    '.svg': 'image/svg+xml',
    '.mp3': 'audio/mpeg',
    '.mp4': 'video/mp4',
  };
  return types[path.extname(fileName).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * PUTs `body` to a presigned `url` (relative URLs are the server's own, resolved against its origin).
 * @returns the ETag the PUT answered (quotes kept, as complete/upload takes it)
 * @throws CofferApiError (reason `UPLOAD_FAILED`) on a non-2xx answer
 */
async function put(client: CofferClient, url: string, body: Uint8Array<ArrayBuffer>, contentType: string): Promise<string> {
  const res = await client.fetch(new URL(url, `${client.baseUrl}/`), {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body,
  });
  await res.body?.cancel().catch(() => undefined);
  if (!res.ok) throw new CofferApiError(0, `The upload was refused (HTTP ${res.status})`, 'UPLOAD_FAILED', res.status);
  return res.headers.get('etag') ?? '';
}

/**
 * Uploads the file at `filePath` by multipart upload with its MD5.
 * @returns the resource (not yet in a collection: `collection/resource/add` attaches it)
 * @throws CofferApiError for a refused call (e.g. FILE_TOO_LARGE) or PUT
 */
export async function uploadFile(
  client: CofferClient,
  filePath: string,
  options: { fileName?: string; contentType?: string } = {},
): Promise<UploadedResource> {
  const fileName = options.fileName ?? path.basename(filePath);
  const contentType = options.contentType ?? contentTypeOf(fileName);
  const { size } = await stat(filePath);
  const md5 = await md5OfFile(filePath);
  const started = await client.call('/api/sl/v1/multipart/upload', { file_name: fileName, size, md5, content_type: contentType });
  const parts: { part_number: number; etag: string }[] = [];
  const file = await open(filePath, 'r');
  try {
    for (let n = 1; n <= started.part_count; n++) {
      const part = await client.call('/api/sl/v1/upload/part/url', { upload_id: started.upload_id, part_number: n });
      const bytes = new Uint8Array(part.size);
      const { bytesRead } = await file.read(bytes, 0, part.size, (n - 1) * started.part_size);
      if (bytesRead !== part.size) throw new CofferApiError(0, `${fileName} changed while it was uploaded`, 'UPLOAD_FAILED', 0);
      parts.push({ part_number: n, etag: await put(client, part.url, bytes, contentType) });
    }
  } finally {
    await file.close();
  }
  return client.call('/api/sl/v1/complete/upload', { upload_id: started.upload_id, parts });
}
