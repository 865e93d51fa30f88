/**
 * The response envelope every Coffer call answers with (product §7, §12).
 *
 * `{ code, msg, data?, reason? }`: `code === SUCCESS_CODE` (10000) means success; any other code is
 * a failure whose `reason` is a stable machine word from {@link ErrorReason}.
 */
import { z } from 'zod';

export { SUCCESS_CODE, ErrorReason, ERROR_TABLE } from './envelope-codes';
export type { SuccessEnvelope, FailureEnvelope, Envelope } from './envelope-codes';
import { SUCCESS_CODE, type SuccessEnvelope } from './envelope-codes';

/** Zod schema for any envelope, for clients that check shape before reading `data`. */
export const EnvelopeSchema = z.object({
  code: z.number(),
  msg: z.string(),
  data: z.unknown().optional(),
  reason: z.string().optional(),
});

/** Wraps `data` in a success envelope. */
export function ok<T>(data: T, msg = 'success'): SuccessEnvelope<T> {
  return { code: SUCCESS_CODE, msg, data };
}
