/**
 * One file of the upload queue as the screen shows it, the queue's limits, and the part rules it
 * shares with the server (product §16).
 */
import type { Resource } from '@coffer/contract';
import type { OverallProgress } from './upload-progress';

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
  /** Refused before it started (an empty file): never hashed, never retried. */
  refused?: boolean;
}

export interface UploadSnapshot {
  items: UploadItem[];
  overall: OverallProgress;
}

/** A file as it enters the queue: queued, nothing hashed or sent. */
export function newUploadItem(id: string, file: File): UploadItem {
  return {
    id,
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
  };
}

/** An ETag as a bare lower-case hex MD5: no weak prefix, no quotes. */
export const normalizeEtag = (etag: string): string => etag.replace(/^W\//, '').replace(/"/g, '').trim().toLowerCase();
