/**
 * Dead upload chunks freed as the upload goes, not 64 MB later (ADR 0074; issue 42's upload memory
 * goal: peak RSS <= 150 MB while a 1 GiB upload streams).
 *
 * Each socket read of a request body is a Buffer of up to 64 KiB whose bytes live outside V8's heap.
 * Once the storage sink has hashed and written it, it is garbage, but V8 frees those bytes only at
 * its next collection, and a body in flight allocates too few heap objects to start one: V8 starts
 * one for "external memory pressure" only after about 64 MB of such memory (ADR 0072 measured 45 MB
 * of dead chunks during every upload run). The storage sinks (providers/storage/local.ts) report the
 * body bytes they take to {@link noteBodyBytes} (and so does the concatenation of parts on
 * completion, whose 1 MiB file reads are external memory the same way); after every
 * {@link MINOR_GC_EVERY_BYTES} (8 MiB) it runs one minor collection (a scavenge of the young
 * generation, where the chunks' Buffer objects die: about 0.2 ms, so about 25 ms of CPU per GiB
 * received). What is left after it is the C heap's: the freed chunks' pages that glibc keeps
 * (ADR 0074, "Measured").
 *
 * The collection is V8's own `gc` function, which `npm start`'s node command exposes under the name
 * {@link GC_GLOBAL} (`--expose-gc-as=__cofferGc`, package.json and apps/server/package.json; a
 * command-line flag, never `v8.setFlagsFromString` at run time, which Node documents as undefined
 * behaviour). A process started without the flag (the tests, `npm run dev`) runs none.
 */

/** The global name `npm start`'s `--expose-gc-as` flag gives V8's gc function. */
export const GC_GLOBAL = '__cofferGc';

/** Body bytes (all uploads together) between two minor collections: 8 MiB. */
export const MINOR_GC_EVERY_BYTES = 8 * 1024 * 1024;

/** V8's gc function as `--expose-gc`/`--expose-gc-as` exposes it. */
export type ExposedGc = (options: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

/** V8's gc function when the process was started with `--expose-gc-as=__cofferGc`, else undefined. */
export function exposedGc(): ExposedGc | undefined {
  const gc = (globalThis as Record<string, unknown>)[GC_GLOBAL];
  return typeof gc === 'function' ? (gc as ExposedGc) : undefined;
}

/**
 * A counter of body bytes that runs `gc({type: 'minor'})` each time `everyBytes` more have been
 * noted. @param everyBytes bytes between collections (> 0) @param gc the collection; undefined: never
 * collects @returns `note(bytes)`, which answers whether it ran a collection
 */
export function minorGcBudget(everyBytes: number, gc: ExposedGc | undefined): (bytes: number) => boolean {
  let since = 0;
  return (bytes) => {
    if (!gc) return false;
    since += bytes;
    if (since < everyBytes) return false;
    since = 0;
    gc({ type: 'minor' });
    return true;
  };
}

/**
 * Notes `bytes` of request body taken by a storage sink (hashed and written); runs a minor
 * collection after every 8 MiB in this process when `npm start`'s flag exposed `gc`. Never throws.
 */
export const noteBodyBytes: (bytes: number) => boolean = minorGcBudget(MINOR_GC_EVERY_BYTES, exposedGc());
