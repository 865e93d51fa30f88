/**
 * File hashing of product §5 ("File hashing (MD5)") and its messages (product §8):
 * - the file must be a Blob/File with a numeric size, else 'Invalid file or blob object';
 * - larger than 50 MB (MD5_MAX_FILE_BYTES) is rejected ('File size exceeds the maximum allowed
 *   size of 50 MB'); an empty file gives 'Cannot calculate MD5 for empty file';
 * - output is 'hex' or 'base64' only; a 30 s timeout per attempt; it fails when the JS heap uses
 *   more than 80 % of its limit (where the browser reports it: performance.memory);
 * - failed attempts (timeout, memory, engine failure) are retried with exponential back-off:
 *   baseDelayMs, 2x, 4x ... The input checks are never retried.
 *
 * Files above 50 MB are not hashed here: the uploader hashes them part by part
 * ({@link hashFileParts}), see docs/decisions/0006-market-upload-hashing.md.
 */
import { MD5_MAX_FILE_BYTES, MD5_MEMORY_GUARD_RATIO, MD5_TIMEOUT_MS } from '@coffer/contract/constants';
import { workerMd5Engine, type Md5Engine } from './md5-engine';

export const Md5Messages = {
  invalid: 'Invalid file or blob object',
  tooLarge: 'File size exceeds the maximum allowed size of 50 MB',
  empty: 'Cannot calculate MD5 for empty file',
  format: 'Invalid output format: must be hex or base64',
  timeout: 'MD5 calculation timed out after 30 seconds',
  memory: 'Not enough memory to calculate MD5: memory use exceeds 80% of the limit',
  failed: 'Failed to calculate MD5',
} as const;

export type Md5ErrorKind = 'invalid' | 'too-large' | 'empty' | 'format' | 'timeout' | 'memory' | 'failed' | 'aborted';

/** A hashing failure; `retryable` tells the retry loop whether another attempt may succeed. */
export class Md5Error extends Error {
  readonly kind: Md5ErrorKind;
  readonly retryable: boolean;
  constructor(kind: Md5ErrorKind, message: string) {
    super(message);
    this.name = 'Md5Error';
    this.kind = kind;
    this.retryable = kind === 'timeout' || kind === 'memory' || kind === 'failed';
  }
}

export type Md5Format = 'hex' | 'base64';

/** Heap figures in bytes, or null where the browser does not report them. */
export type MemoryReader = () => { used: number; limit: number } | null;

/** Chromium's performance.memory (usedJSHeapSize / jsHeapSizeLimit). */
export const browserMemory: MemoryReader = () => {
  const m = (globalThis.performance as unknown as { memory?: { usedJSHeapSize: number; jsHeapSizeLimit: number } } | undefined)
    ?.memory;
  return m && m.jsHeapSizeLimit > 0 ? { used: m.usedJSHeapSize, limit: m.jsHeapSizeLimit } : null;
};

export interface HashOptions {
  format?: Md5Format;
  /** Per attempt; default 30 000 ms (product §9). */
  timeoutMs?: number;
  /** Extra attempts after the first; default 2. */
  retries?: number;
  /** First back-off delay; doubled on each retry. Default 500 ms. */
  baseDelayMs?: number;
  engine?: Md5Engine;
  memory?: MemoryReader;
  signal?: AbortSignal;
  onProgress?: (hashedBytes: number) => void;
  /** Called before each retry with the attempt number (1-based) and the delay (ms). */
  onRetry?: (attempt: number, delayMs: number, error: Md5Error) => void;
}

function isBlobLike(value: unknown): value is Blob {
  return typeof Blob !== 'undefined' && value instanceof Blob && typeof value.size === 'number' && Number.isFinite(value.size);
}

/** The product §5 input checks. @throws Md5Error (invalid, empty, too-large, format) */
export function checkHashInput(
  file: unknown,
  format: unknown = 'hex',
  maxBytes: number = MD5_MAX_FILE_BYTES,
): asserts file is Blob {
  if (!isBlobLike(file)) throw new Md5Error('invalid', Md5Messages.invalid);
  if (format !== 'hex' && format !== 'base64') throw new Md5Error('format', Md5Messages.format);
  if (file.size === 0) throw new Md5Error('empty', Md5Messages.empty);
  if (file.size > maxBytes) throw new Md5Error('too-large', Md5Messages.tooLarge);
}

function checkMemory(memory: MemoryReader): void {
  const m = memory();
  if (m && m.used / m.limit > MD5_MEMORY_GUARD_RATIO) throw new Md5Error('memory', Md5Messages.memory);
}

function abortError(): Md5Error {
  return new Md5Error('aborted', 'MD5 calculation was cancelled');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError());
    const t = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(abortError());
      },
      { once: true },
    );
  });
}

/** Runs one attempt with its timeout; the attempt's own signal is aborted when time runs out. */
async function attempt<T>(run: (signal: AbortSignal) => Promise<T>, timeoutMs: number, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort();
  outer?.addEventListener('abort', onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Md5Error('timeout', Md5Messages.timeout));
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(controller.signal), timeout]);
  } catch (err) {
    if (outer?.aborted) throw abortError();
    if (err instanceof Md5Error) throw err;
    throw new Md5Error(
      'failed',
      err instanceof Error && err.message ? `${Md5Messages.failed}: ${err.message}` : Md5Messages.failed,
    );
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuterAbort);
  }
}

/** The retry loop with exponential back-off shared by both hashing paths. */
async function withRetries<T>(run: (signal: AbortSignal) => Promise<T>, options: HashOptions, timeoutMs: number): Promise<T> {
  const retries = options.retries ?? 2;
  const base = options.baseDelayMs ?? 500;
  const memory = options.memory ?? browserMemory;
  for (let i = 0; ; i++) {
    try {
      if (options.signal?.aborted) throw abortError();
      checkMemory(memory);
      return await attempt(run, timeoutMs, options.signal);
    } catch (err) {
      const error = err instanceof Md5Error ? err : new Md5Error('failed', Md5Messages.failed);
      if (!error.retryable || i >= retries) throw error;
      const delay = base * 2 ** i;
      options.onRetry?.(i + 1, delay, error);
      await sleep(delay, options.signal);
    }
  }
}

/**
 * MD5 of a file of at most 50 MB (product §5).
 * @returns the digest as lower-case hex (32 chars) or base64 (24 chars)
 * @throws Md5Error with one of {@link Md5Messages}
 */
export async function calculateFileMd5(file: unknown, options: HashOptions = {}): Promise<string> {
  const format = options.format ?? 'hex';
  checkHashInput(file, format);
  const engine = options.engine ?? workerMd5Engine;
  return withRetries(
    (signal) => engine.digest(file, format, { signal, onProgress: options.onProgress }),
    options,
    options.timeoutMs ?? MD5_TIMEOUT_MS,
  );
}

/**
 * The big-file path: MD5 (hex) of the whole file and of each `partSize` slice in one streaming
 * pass, so no more than one chunk is held at a time. Same input checks without the 50 MB cap; the
 * timeout scales with size (30 s per started 50 MB).
 * @throws Md5Error
 */
export async function hashFileParts(
  file: unknown,
  partSize: number,
  options: Omit<HashOptions, 'format'> = {},
): Promise<{ md5: string; parts: string[] }> {
  checkHashInput(file, 'hex', Number.MAX_SAFE_INTEGER);
  const engine = options.engine ?? workerMd5Engine;
  const timeoutMs = (options.timeoutMs ?? MD5_TIMEOUT_MS) * Math.max(1, Math.ceil(file.size / MD5_MAX_FILE_BYTES));
  const r = await withRetries(
    (signal) => engine.digestParts(file, partSize, { signal, onProgress: options.onProgress }),
    options,
    timeoutMs,
  );
  return { md5: r.digest, parts: r.parts };
}
