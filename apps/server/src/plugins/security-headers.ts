/**
 * Helmet's security headers (Content-Security-Policy, Cross-Origin-*, Strict-Transport-Security,
 * X-Content-Type-Options, ...) on every response, computed once.
 *
 * `@fastify/helmet` builds a new helmet middleware on every request (the CSP directives parsed and
 * validated each time: about 5 % of a cached public read's CPU, docs/decisions/0020-reads-at-the-limit.md).
 * The app's options are static (no nonces, no per-request directive functions), so this plugin runs
 * helmet once at start-up against a recording response and sets the recorded headers on each
 * response's raw object in an `onRequest` hook, as helmet would: the same headers, in the same order,
 * for every route, the not-found handler and static files included.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers helmet sets for `options` (names as helmet writes them) and the ones it removes.
 * @throws Error when helmet rejects the options (as it would at the first request)
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): { set: [string, string][]; removed: string[] } {
  const set = new Map<string, string>();
  const removed: string[] = [];
  const res = {
    setHeader(name: string, value: string) {
      set.set(name, String(value));
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  let failure: unknown;
  let called = false;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    called = true;
    failure = err;
  });
  if (!called) throw new Error('helmet did not answer synchronously');
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return { set: [...set], removed };
}

async function securityHeadersImpl(app: FastifyInstance, options: HelmetOptions): Promise<void> {
  const { set, removed } = helmetHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    const raw = reply.raw;
    for (const name of removed) raw.removeHeader(name);
    for (const [name, value] of set) raw.setHeader(name, value);
    done();
  });
}

/** Registers the headers on the root instance (fastify-plugin, so the hook sees every route). */
export const securityHeadersPlugin = fp(securityHeadersImpl, { name: 'coffer-security-headers' });
