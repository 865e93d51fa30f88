/**
 * Progress arithmetic of the uploader, kept pure so it can be tested: bytes, percent and speed
 * per file and over all files.
 */

/** A (time ms, bytes) sample of one file's upload. */
export interface ProgressSample {
  t: number;
  bytes: number;
}

/** How far back speed is measured. */
export const SPEED_WINDOW_MS = 3_000;

/** Adds a sample and drops those older than the window (keeping one just outside it as the base). */
export function addSample(samples: ProgressSample[], sample: ProgressSample, windowMs = SPEED_WINDOW_MS): ProgressSample[] {
  const next = [...samples, sample];
  let start = 0;
  while (start < next.length - 2 && next[start + 1]!.t <= sample.t - windowMs) start++;
  return next.slice(start);
}

/** Bytes per second over the samples; 0 with fewer than two samples or no elapsed time. */
export function speedOf(samples: ProgressSample[]): number {
  if (samples.length < 2) return 0;
  const first = samples[0]!;
  const last = samples[samples.length - 1]!;
  const dt = last.t - first.t;
  if (dt <= 0) return 0;
  return Math.max(0, ((last.bytes - first.bytes) * 1000) / dt);
}

/** Whole percent 0..100 of `done` over `total` (100 for an empty total). */
export function percentOf(done: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.max(0, Math.floor((done / total) * 100)));
}

export interface ProgressLike {
  size: number;
  uploadedBytes: number;
  speed: number;
  status: string;
}

export interface OverallProgress {
  totalBytes: number;
  uploadedBytes: number;
  percent: number;
  /** Bytes per second, summed over the files uploading now. */
  speed: number;
  files: number;
  done: number;
  failed: number;
  /** Files still hashing, waiting or uploading. */
  active: number;
}

/** The overall figures; cancelled files do not count. */
export function summarize(items: readonly ProgressLike[]): OverallProgress {
  const counted = items.filter((i) => i.status !== 'cancelled');
  const totalBytes = counted.reduce((s, i) => s + i.size, 0);
  const uploadedBytes = counted.reduce((s, i) => s + Math.min(i.size, i.uploadedBytes), 0);
  return {
    totalBytes,
    uploadedBytes,
    percent: percentOf(uploadedBytes, totalBytes),
    speed: counted.filter((i) => i.status === 'uploading').reduce((s, i) => s + i.speed, 0),
    files: counted.length,
    done: counted.filter((i) => i.status === 'done').length,
    failed: counted.filter((i) => i.status === 'failed').length,
    active: counted.filter((i) => i.status === 'queued' || i.status === 'hashing' || i.status === 'uploading' || i.status === 'completing').length,
  };
}

/** '1.5 MB/s' style speed (base 1024). */
export function formatSpeed(bytesPerSecond: number): string {
  const units = ['B/s', 'KB/s', 'MB/s', 'GB/s'];
  let v = Math.max(0, bytesPerSecond);
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}
