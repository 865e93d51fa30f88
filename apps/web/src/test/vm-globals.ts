/**
 * Globals Node has and a `vmThreads` worker's jsdom context lacks (msw reaches for web streams at import).
 */
import { ReadableStream, TransformStream, WritableStream } from 'node:stream/web';

const g = globalThis as Record<string, unknown>;
g.WritableStream ??= WritableStream;
g.ReadableStream ??= ReadableStream;
g.TransformStream ??= TransformStream;
