/**
 * The one mapping of storage failures ({@link StorageError}, providers/storage) to the envelope's
 * errors (lib/errors.ts). Each caller names the codes it answers; the others pass through unchanged
 * (and end as INTERNAL in the error handler).
 */
import { StorageError } from '../../providers/storage/index';
import { errors, type AppError } from '../../lib/errors';

/** A StorageError code (S3's names, plus `Sealed` for a verified object's key). */
export type StorageErrorCode = StorageError['code'];

/** Per-code envelope errors. */
export type StorageErrorMapping = Partial<Record<StorageErrorCode, (err: StorageError) => AppError>>;

/** The default envelope error of each code a caller may answer. */
const DEFAULTS: StorageErrorMapping = {
  EntityTooLarge: (err) => errors.tooLarge(err.message),
  InvalidPart: (err) => errors.validation(err.message),
  NotImplemented: (err) => errors.conflict(err.message),
  NoSuchKey: () => errors.notFound('The file does not exist'),
  NoSuchUpload: () => errors.notFound('The upload does not exist'),
  Sealed: () => errors.forbidden('This file was verified and can no longer be changed'),
};

/** True when `err` is a StorageError with that code. */
export function isStorageError(err: unknown, code: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && err.code === code;
}

/**
 * `err` as an envelope error when it is a StorageError whose code is in `codes` (`overrides[code]`
 * first, else the default: EntityTooLarge -> PAYLOAD_TOO_LARGE, InvalidPart -> VALIDATION_FAILED,
 * NotImplemented -> CONFLICT, NoSuchKey/NoSuchUpload -> NOT_FOUND, Sealed -> FORBIDDEN); otherwise
 * `err` itself. Returns, never throws.
 */
export function fromStorageError(err: unknown, codes: readonly StorageErrorCode[], overrides: StorageErrorMapping = {}): unknown {
  if (!(err instanceof StorageError) || !codes.includes(err.code)) return err;
  const map = overrides[err.code] ?? DEFAULTS[err.code];
  return map ? map(err) : err;
}
