/**
 * Webhook delivery that one seller cannot stall (issue 39, docs/abuse.md "Webhook delivery", ADR
 * 0046), through the real app and real local receivers:
 * - a seller whose endpoint never answers has three deliveries due; an honest seller's sale made
 *   while the first of those hangs is delivered before that first attempt has even timed out (it
 *   used to wait for all three, one after another: 50 s with the 10 s timeout);
 * - the hanging seller's deliveries go one at a time, in order;
 * - on PostgreSQL, two instances passing at once over a slow receiver send every delivery once
 *   (each claimed delivery is sent at once, inside its lease).
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import { REDELIVERS_PER_WINDOW } from './events.routes';
import { DISABLE_AFTER_MS } from './events.service';

const onPostgres = /^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '');
const uc = (p: string) => `/api/uc/v1/account${p}`;

/** A local receiver; `handle` decides what each request gets. */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void) {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

async function sale(t: TestApp, collectionId: string) {
  const buyer = await createUser(t);
  await fund(t, buyer.id, '100');
  expect((await buyAndPay(t, buyer, collectionId)).body.code).toBe(10000);
}

async function sellerWithHook(t: TestApp, url: string): Promise<{ seller: TestUser; collectionId: string }> {
  const seller = await createUser(t);
  await ok(t, uc('/webhook/set'), { url }, seller.token);
  const c = await publishedCollection(t, seller, 5, 'Hooked');
  return { seller, collectionId: c.id };
}

describe('one seller cannot stall the others', () => {
  let t: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    // A database of its own on PostgreSQL: its passes claim every due delivery.
    scratch = await createScratchDatabase('coffer_hooks_fair');
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '2000', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  });
  afterAll(async () => {
    await t.close();
    await scratch?.drop();
  });

  it("delivers an honest seller's sale while another seller's endpoint hangs; the hanging one gets one attempt at a time", async () => {
    const log: string[] = [];
    const starts: number[] = [];
    const hanging = await receiver((req) => {
      starts.push(performance.now());
      log.push('hang:start');
      req.socket.on('close', () => log.push('hang:end'));
      // Never answers.
    });
    const honest = await receiver((_req, res) => {
      log.push('honest');
      res.writeHead(204).end();
    });
    try {
      const slow = await sellerWithHook(t, hanging.url);
      const good = await sellerWithHook(t, honest.url);
      for (let i = 0; i < 3; i++) await sale(t, slow.collectionId);
      const pass = t.app.ctx.services.events.deliverDue();
      // The first hanging attempt is in flight; now the honest seller sells.
      while (!log.includes('hang:start')) await new Promise((r) => setTimeout(r, 20));
      await sale(t, good.collectionId);
      const counts = await pass;
      // The honest delivery arrived before the first hanging attempt gave up.
      expect(log.indexOf('honest'), log.join(' ')).toBeGreaterThan(-1);
      expect(log.indexOf('honest'), log.join(' ')).toBeLessThan(log.indexOf('hang:end'));
      expect(counts).toMatchObject({ delivered: 1, retry: 3 });
      // One at a time: each attempt starts only once the one before gave up (the timeout is 2 s).
      expect(starts).toHaveLength(3);
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThan(1_500);
    } finally {
      await hanging.close();
      await honest.close();
    }
  }, 30_000);
});

describe('webhook/redeliver is limited per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  });
  afterAll(() => t.close());

  it(`answers 429 past ${REDELIVERS_PER_WINDOW} calls in the window, for that user only`, async () => {
    const { seller, collectionId } = await sellerWithHook(t, 'http://127.0.0.1:9/hook');
    await sale(t, collectionId);
    await t.app.ctx.services.events.deliverDue();
    const events = await ok<{ events: { id: string }[] }>(t, uc('/events/list'), {}, seller.token);
    const eventId = events.events[0]!.id;
    for (let i = 0; i < REDELIVERS_PER_WINDOW; i++) {
      expect((await t.call(uc('/webhook/redeliver'), { event_id: eventId }, seller.token)).body.code).toBe(10000);
    }
    const refused = await t.call(uc('/webhook/redeliver'), { event_id: eventId }, seller.token);
    expect([refused.status, refused.body.reason]).toEqual([429, 'RATE_LIMITED']);
    // Another seller is not affected.
    const other = await sellerWithHook(t, 'http://127.0.0.1:9/hook');
    await sale(t, other.collectionId);
    await t.app.ctx.services.events.deliverDue();
    const theirs = (await ok<{ events: { id: string }[] }>(t, uc('/events/list'), {}, other.seller.token)).events[0]!.id;
    expect((await t.call(uc('/webhook/redeliver'), { event_id: theirs }, other.seller.token)).body.code).toBe(10000);
  }, 30_000);
});

describe('an endpoint that fails for 24 h', () => {
  let t: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase('coffer_hooks_off');
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  });
  afterAll(async () => {
    await t.close();
    await scratch?.drop();
  });

  it('is turned off and its owner mailed once; saving the URL turns it on and the waiting deliveries go out', async () => {
    let status = 500;
    let requests = 0;
    const flaky = await receiver((_req, res) => {
      requests++;
      res.writeHead(status).end();
    });
    try {
      const { seller, collectionId } = await sellerWithHook(t, flaky.url);
      const events = t.app.ctx.services.events;
      await sale(t, collectionId);
      await events.deliverDue();
      expect(requests).toBe(1);
      // Still failing a day later: the next failure turns the endpoint off.
      t.clock.advance(DISABLE_AFTER_MS + 60_000);
      await sale(t, collectionId);
      await events.deliverDue();
      const sent = requests;
      const view = (await ok(t, uc('/webhook/get'), {}, seller.token)).endpoint;
      expect(view.disabled_at).toBe(t.clock.now());
      await t.app.ctx.services.mailQueue.settled();
      const dir = path.join(t.dataDir, 'outbox');
      const mails = (await Promise.all((await readdir(dir)).map((f) => readFile(path.join(dir, f), 'utf8')))).filter((m) =>
        m.includes(`To: ${seller.email}`),
      );
      const notice = mails.filter((m) => m.includes('stopped sending to it'));
      expect(notice).toHaveLength(1);
      // Off: new sales and due retries send nothing.
      await sale(t, collectionId);
      t.clock.advance(3_600_000);
      await events.deliverDue();
      expect(requests).toBe(sent);
      // The owner fixes the endpoint and saves the URL: on again, the waiting deliveries go out.
      status = 200;
      expect((await ok(t, uc('/webhook/set'), { url: flaky.url }, seller.token)).endpoint.disabled_at).toBeNull();
      const counts = await events.deliverDue();
      expect(counts.delivered).toBeGreaterThanOrEqual(1);
      expect(requests).toBeGreaterThan(sent);
    } finally {
      await flaky.close();
    }
  }, 30_000);
});

describe.skipIf(!onPostgres)('two instances over a slow receiver (PostgreSQL)', () => {
  let a: TestApp;
  let b: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    scratch = await createScratchDatabase('coffer_hooks_two');
    const env = { STORAGE_SIGNING_SECRET: randomBytes(32).toString('hex'), WEBHOOK_ALLOW_PRIVATE: 'true', DATABASE_URL: scratch!.url };
    a = await createTestApp(env);
    b = await createTestApp(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await scratch?.drop();
  });

  it('sends every delivery once while both pass at once', async () => {
    const seen: string[] = [];
    const slow = await receiver((req, res) => {
      seen.push(String(req.headers['webhook-id']));
      setTimeout(() => res.writeHead(200).end(), 150);
    });
    try {
      const sellers = await Promise.all([0, 1, 2, 3].map(() => sellerWithHook(a, slow.url)));
      for (const s of sellers) for (let i = 0; i < 3; i++) await sale(a, s.collectionId);
      const [ra, rb] = await Promise.all([a.app.ctx.services.events.deliverDue(), b.app.ctx.services.events.deliverDue()]);
      expect(ra.delivered + rb.delivered).toBe(12);
      expect(seen).toHaveLength(12);
      expect(new Set(seen).size).toBe(12);
    } finally {
      await slow.close();
    }
  }, 30_000);
});
