/** Webhook URL checks (SSRF, ADR 0025): what production refuses when set and before each attempt. */
import { pbkdf2 } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../env';
import { webhooksMayReachPrivate } from '../../services';
import { checkWebhookUrl, isPrivateAddress, pinnedWebhookFetch, publicDnsResolver, resolveWebhookTarget } from './webhook-target';

const pbkdf2Async = promisify(pbkdf2);

describe('webhook targets', () => {
  it('production: https only, no credentials, no local or private literal hosts', () => {
    expect(checkWebhookUrl('https://hooks.example.com/x?a=1', false)).toEqual({ url: 'https://hooks.example.com/x?a=1' });
    expect(checkWebhookUrl('http://hooks.example.com/x', false)).toEqual({ error: 'The URL must start with https://' });
    expect(checkWebhookUrl('http://localhost:3000/x', false)).toEqual({ error: 'The URL must start with https://' });
    expect(checkWebhookUrl('https://user:pw@hooks.example.com/', false)).toEqual({
      error: 'The URL must not contain a user name or password',
    });
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '169.254.169.254',
      '[::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(checkWebhookUrl(`https://${host}/x`, false), host).toEqual({ error: 'The URL must point to a public address' });
    }
    expect(checkWebhookUrl('ftp://hooks.example.com/', false)).toEqual({ error: 'The URL must start with https://' });
  });

  it('development and tests: http is allowed for localhost only', () => {
    expect(checkWebhookUrl('http://localhost:3000/x', true)).toEqual({ url: 'http://localhost:3000/x' });
    expect(checkWebhookUrl('http://127.0.0.1:3000/x', true)).toEqual({ url: 'http://127.0.0.1:3000/x' });
    expect(checkWebhookUrl('http://example.com/x', true)).toEqual({ error: 'The URL must start with https://' });
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::2',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('before each attempt, refuses a host that resolves to a private address (any of its answers)', async () => {
    const dns = (answers: Record<string, string[]>) => async (h: string) => {
      if (!answers[h]) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      return answers[h];
    };
    const resolve = dns({ 'ok.example': ['93.184.216.34'], 'evil.example': ['93.184.216.34', '127.0.0.1'] });
    expect(await resolveWebhookTarget('https://ok.example/h', false, resolve)).toBeNull();
    expect(await resolveWebhookTarget('https://evil.example/h', false, resolve)).toBe('blocked address');
    expect(await resolveWebhookTarget('https://gone.example/h', false, resolve)).toBe('dns: ENOTFOUND');
    expect(await resolveWebhookTarget('https://evil.example/h', true, resolve)).toBeNull();
  });

  it("refuses every special-purpose range the attack review found, in every spelling", () => {
    for (const a of [
      '::127.0.0.1', // IPv4-compatible (::a.b.c.d)
      '::8.8.8.8', // IPv4-compatible, even of a public address (deprecated form)
      '::ffff:0:127.0.0.1', // SIIT
      '64:ff9b::7f00:1', // NAT64 well-known prefix
      '64:ff9b:1::1', // NAT64 local-use prefix (64:ff9b:1::/48)
      '2002:7f00:1::1', // 6to4
      '2001:0:4136:e378:8000:63bf:3fff:fdd2', // Teredo
      '2001:db8::1', // documentation
      '100::1', // discard-only
      '192.0.2.10', // TEST-NET-1
      '198.51.100.7', // TEST-NET-2
      '203.0.113.9', // TEST-NET-3
      '198.18.0.1', // benchmarking
      '255.255.255.255',
      '2130706433', // 127.0.0.1 as one number
      '0x7f.1', // 127.0.0.1 in hex
      'fe80::1%eth0', // with a zone
      'not an address',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    // The URL parser normalises numeric hosts, so the literal check sees 127.0.0.1.
    expect(checkWebhookUrl('https://2130706433/x', false)).toEqual({ error: 'The URL must point to a public address' });
    expect(checkWebhookUrl('https://0x7f.0.0.1/x', false)).toEqual({ error: 'The URL must point to a public address' });
    expect(checkWebhookUrl('https://[::127.0.0.1]/x', false)).toEqual({ error: 'The URL must point to a public address' });
    expect(checkWebhookUrl('https://[64:ff9b:1::a]/x', false)).toEqual({ error: 'The URL must point to a public address' });
    expect(checkWebhookUrl('https://app.localhost/x', false)).toEqual({ error: 'The URL must point to a public address' });
  });

  it('is off unless WEBHOOK_ALLOW_PRIVATE=true, in every mode, and says so in the log when on', () => {
    const warnings: string[] = [];
    const log = { warn: (msg: string) => warnings.push(msg) };
    for (const NODE_ENV of ['development', 'test', 'production']) {
      const base = { NODE_ENV, DATABASE_URL: 'memory://', ...(NODE_ENV === 'production' ? { PAYMENTS: 'sandbox', ALLOW_SANDBOX_IN_PRODUCTION: 'true' } : {}) };
      expect(webhooksMayReachPrivate(loadConfig(base), log), NODE_ENV).toBe(false);
      expect(webhooksMayReachPrivate(loadConfig({ ...base, WEBHOOK_ALLOW_PRIVATE: 'true' }), log), NODE_ENV).toBe(true);
    }
    expect(warnings).toHaveLength(3);
    expect(warnings[0]).toMatch(/WEBHOOK_ALLOW_PRIVATE is on/);
  });

  describe('the delivery connection (DNS rebinding)', () => {
    let server: Server;
    let port = 0;
    let hits = 0;
    beforeAll(async () => {
      server = createServer((_req, res) => {
        hits++;
        res.writeHead(204).end();
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('connects only to the address it checked: a name that answers public, then private, reaches nothing', async () => {
      // The first answer passes the early check; the connection's own lookup gets the private one.
      const answers = [['93.184.216.34'], ['127.0.0.1']];
      const resolve = async () => answers.shift() ?? ['127.0.0.1'];
      expect(await resolveWebhookTarget(`https://rebind.example:${port}/h`, false, resolve)).toBeNull();
      const pinned = pinnedWebhookFetch(resolve, false);
      const err = await pinned(`http://rebind.example:${port}/h`, { method: 'POST', body: '{}' }).then(
        () => null,
        (e: { cause?: { code?: string } }) => e,
      );
      expect(err?.cause?.code).toBe('EBLOCKEDADDRESS');
      expect(hits).toBe(0);
    });

    it('with WEBHOOK_ALLOW_PRIVATE on, the same connection reaches the local endpoint', async () => {
      const pinned = pinnedWebhookFetch(async () => ['127.0.0.1'], true);
      const res = await pinned(`http://hooks.test:${port}/h`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(204);
      expect(hits).toBe(1);
    });

    it('a delivery whose undici import fails rejects, and the next delivery imports again and arrives', async () => {
      let imports = 0;
      const pinned = pinnedWebhookFetch(async () => ['127.0.0.1'], true, () => {
        imports++;
        return imports === 1 ? Promise.reject(new Error('ENOMEM while loading undici')) : import('undici');
      });
      const before = hits;
      await expect(pinned(`http://hooks.test:${port}/h`, { method: 'POST', body: '{}' })).rejects.toThrow('ENOMEM while loading undici');
      expect(hits).toBe(before);
      const res = await pinned(`http://hooks.test:${port}/h`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(204);
      expect(hits).toBe(before + 1);
      // Once loaded, the client is kept: a third delivery imports nothing.
      await pinned(`http://hooks.test:${port}/h`, { method: 'POST', body: '{}' });
      expect(imports).toBe(2);
    });
  });
});

/**
 * A DNS server on 127.0.0.1 that answers every A question with `address` and every other question
 * with no record (RFC 1035 §4.1: the question echoed, one answer pointing back at it).
 */
async function fakeDns(address: string) {
  const socket = createSocket('udp4');
  socket.on('message', (query, from) => {
    let end = 12;
    while (query[end]! !== 0) end += query[end]! + 1;
    const qtype = query.readUInt16BE(end + 1);
    const question = query.subarray(12, end + 5);
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8180, 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(qtype === 1 ? 1 : 0, 6);
    const answer = Buffer.alloc(16);
    answer.writeUInt16BE(0xc00c, 0);
    answer.writeUInt16BE(1, 2);
    answer.writeUInt16BE(1, 4);
    answer.writeUInt32BE(60, 6);
    answer.writeUInt16BE(4, 10);
    address.split('.').forEach((octet, i) => answer.writeUInt8(Number(octet), 12 + i));
    socket.send(Buffer.concat([header, question, ...(qtype === 1 ? [answer] : [])]), from.port, from.address);
  });
  await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
  return { server: `127.0.0.1:${socket.address().port}`, close: () => new Promise<void>((r) => socket.close(() => r())) };
}

describe('the DNS lookup of public webhook targets', () => {
  it("answers while libuv's thread pool is busy, where getaddrinfo would wait (docs/abuse.md \"Webhook delivery\")", async () => {
    const dns = await fakeDns('93.184.216.34');
    try {
      const resolve = publicDnsResolver({ servers: [dns.server] });
      expect(await resolve('hooks.example')).toEqual(['93.184.216.34']);
      // Every pool thread busy for about a second (password hashing is one of the server's pool users).
      const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
      const started = performance.now();
      const busy = Array.from({ length: threads }, () => pbkdf2Async('x', 'salt', 1_500_000, 32, 'sha256'));
      const viaPool = lookup('localhost').then(() => performance.now() - started);
      const viaCares = resolve('hooks.example').then(() => performance.now() - started);
      const [pool, cares] = await Promise.all([viaPool, viaCares, ...busy]);
      // getaddrinfo waited for a free thread; the webhook resolver did not.
      expect(pool).toBeGreaterThan(300);
      expect(cares).toBeLessThan(pool / 3);
    } finally {
      await dns.close();
    }
  }, 30_000);
});
