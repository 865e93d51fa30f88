/**
 * The last line of docs/abuse.md "Text": a JSON body holding a NUL or another C0 control character
 * (tab, line feed and carriage return excepted) or DEL in any string — a value or a key, at any
 * depth — is refused before validation with 400 VALIDATION_FAILED naming the field, e.g.
 * `title must not contain control characters`. PostgreSQL cannot store a NUL in text, so such a
 * value once reached the database and answered 500 (login, register and market/collections among
 * ten calls). The contract's one-line and multi-line rules (`isOneLine`, `isMultiLine`) refuse the
 * rest per field (line breaks in titles, bidi overrides), with the field's own message.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../lib/errors';

// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Most nested levels looked into (bodies are a few levels deep; deeper ones are refused by their schemas). */
const MAX_DEPTH = 32;

/**
 * The dotted path of the first string (value or key) in `value` holding a control character, or
 * null. Arrays show as `files.2.name`.
 */
export function controlCharacterAt(value: unknown, path = '', depth = 0): string | null {
  if (typeof value === 'string') return CONTROL.test(value) ? path || 'body' : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  // Only what JSON.parse makes: plain objects and arrays (never an upload's Buffer or stream).
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return null;
  }
  for (const [key, child] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (CONTROL.test(key)) return path || 'body';
    const found = controlCharacterAt(child, at, depth + 1);
    if (found) return found;
  }
  return null;
}

export const textGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (req) => {
    // JSON bodies only: an upload's PUT carries the file's bytes, which are no text.
    if (!String(req.headers['content-type'] ?? '').includes('json')) return;
    const at = controlCharacterAt(req.body);
    if (at) throw errors.validation(`${at} must not contain control characters`);
  });
});
