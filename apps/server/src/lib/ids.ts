/**
 * Entity ids: UUIDv7 strings (RFC 9562 §5.7: 48-bit Unix time in ms, then random bits), time-ordered
 * so inserts stay index-friendly.
 *
 * The layout and the monotonic rule are the `uuid` package's (`v7()` with its default state): within
 * one millisecond the 31-bit counter seeded from random bits counts up, and ids of one process sort
 * in the order they were made. What differs is where the random bits come from: `v7()` asks
 * `crypto.getRandomValues` for 16 bytes per id (about 5 µs each on this kind of machine, several ids
 * per purchase); here they are cut from a 4 KiB pool filled by `crypto.randomFillSync` (the same
 * CSPRNG), about 0.4 µs per id (docs/decisions/0038-receipts-off-the-threadpool.md).
 */
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const POOL_BYTES = 4096;
const pool = Buffer.allocUnsafe(POOL_BYTES);
let offset = POOL_BYTES;

/** 16 fresh random bytes (a view into the pool; each byte is handed out once). */
function random16(): Uint8Array {
  if (offset + 16 > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const bytes = pool.subarray(offset, offset + 16);
  offset += 16;
  return bytes;
}

/** The time and counter of the last id (the `uuid` package's `updateV7State`, which it does not export). */
const state = { msecs: -Infinity, seq: 0 };

/** A new UUIDv7 string, e.g. `01a21ebf-7e73-73b7-81f7-7f75eb6e2031`; later calls sort after earlier ones. */
export const newId = (): string => {
  const random = random16();
  const now = Date.now();
  if (now > state.msecs) {
    state.seq = ((random[6]! & 0x7f) << 24) | (random[7]! << 16) | (random[8]! << 8) | random[9]!;
    state.msecs = now;
  } else {
    state.seq = (state.seq + 1) | 0;
    if (state.seq === 0) state.msecs++;
  }
  return v7({ random, msecs: state.msecs, seq: state.seq });
};
