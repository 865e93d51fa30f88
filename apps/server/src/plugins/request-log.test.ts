/** plugins/request-log.ts: one line per request, with what an operator needs and nothing secret. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, md5, PASSWORD, uniq, type TestApp } from '../test/harness';

interface Line {
  msg?: string;
  reqId?: string;
  method?: string;
  url?: string;
  route?: string;
  statusCode?: number;
  responseTime?: number;
}

const lines: Line[] = [];
const sink = new Writable({
  write(chunk, _enc, cb) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
    cb();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream: sink });
});
afterAll(() => t.close());

describe('request log', () => {
  it('writes one line per request: method, url, route, status and time in ms; never the two default lines', async () => {
    const username = `rl_${uniq()}`;
    const reg = await t.call('/api/uc/v1/account/register', { username, email: `${username}@example.com`, password: md5(PASSWORD) });
    const token = reg.body.data.access_token as string;
    lines.length = 0;
    await t.call('/api/uc/v1/account/get/me', {}, token);
    await t.call('/api/uc/v1/account/get/me', {}, 'not-a-token');

    const requests = lines.filter((l) => l.url === '/api/uc/v1/account/get/me');
    expect(requests).toHaveLength(2);
    for (const l of requests) {
      expect(l.msg).toBe('request completed');
      expect(l.method).toBe('POST');
      expect(l.route).toBe('/api/uc/v1/account/get/me');
      expect(typeof l.responseTime).toBe('number');
      expect(l.responseTime).toBeGreaterThanOrEqual(0);
    }
    expect(requests.map((l) => l.statusCode)).toEqual([200, 401]);
    // One line per request id: Fastify's "incoming request" line is off.
    expect(new Set(requests.map((l) => l.reqId)).size).toBe(2);
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
    expect(JSON.stringify(lines)).not.toContain(token);
  });
});
