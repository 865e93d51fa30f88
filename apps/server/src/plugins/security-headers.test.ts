import fastifyHelmet from '@fastify/helmet';
import Fastify from 'fastify';
import type { HelmetOptions } from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeadersPlugin } from './security-headers';

const options: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      imgSrc: ["'self'", 'data:', 'https://s3.example.com'],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginResourcePolicy: { policy: 'same-origin' },
};

/** Every response header but the ones that differ from request to request. */
async function headersOf(register: (app: ReturnType<typeof Fastify>) => Promise<unknown>, url: string) {
  const app = Fastify({ logger: false });
  await register(app);
  app.post('/x', async () => ({ ok: true }));
  const res = await app.inject({ method: 'POST', url, payload: {} });
  await app.close();
  const { date: _date, ...rest } = res.headers;
  return { status: res.statusCode, headers: rest };
}

describe('security headers', () => {
  it('sets the same headers as @fastify/helmet with the same options, on routes and on 404s', async () => {
    for (const url of ['/x', '/missing']) {
      const viaHelmet = await headersOf((app) => app.register(fastifyHelmet, options), url);
      const computedOnce = await headersOf((app) => app.register(securityHeadersPlugin, options), url);
      expect(computedOnce).toEqual(viaHelmet);
      expect(computedOnce.headers['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
      expect(computedOnce.headers['strict-transport-security']).toBeDefined();
    }
  });

  it('rejects options helmet rejects, at registration', async () => {
    const app = Fastify({ logger: false });
    await expect(
      app
        .register(securityHeadersPlugin, { contentSecurityPolicy: { directives: { defaultSrc: ["'self'"], 'bad name': ['x'] } } })
        .ready(),
    ).rejects.toThrow();
  });
});
