/**
 * Upload rules shared by the server (which decides) and the web (which predicts before asking):
 * zod-free, exported from both contract entries. Sizes are bytes.
 */
import { MIN_PART_BYTES } from './constants';

/** S3's limit on the number of parts of one multipart upload. */
export const MAX_UPLOAD_PARTS = 10_000;

const MiB = 1024 * 1024;

/**
 * The part size of a multipart upload of a file of `size` bytes (product §16, S3's rules): every part
 * but the last is this many bytes; 5 MiB ({@link MIN_PART_BYTES}), or more, in whole MiB, when a
 * file would otherwise need more than {@link MAX_UPLOAD_PARTS} parts.
 * @param size the file's size in bytes (a non-negative integer)
 * @returns bytes, a multiple of 1 MiB, at least 5 MiB; e.g. 5 MiB for 1 GiB, 11 MiB for 100 GiB
 */
export function partSizeFor(size: number): number {
  const min = Math.ceil(size / MAX_UPLOAD_PARTS / MiB) * MiB;
  return Math.max(MIN_PART_BYTES, min);
}
