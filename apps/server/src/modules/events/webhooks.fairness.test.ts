/**
 * Webhook delivery that one seller cannot stall (issue 39, docs/abuse.md "Webhook delivery", ADR
 * 0046), through the real app and real local receivers:
 * - with the default 10 s timeout, a seller whose endpoint never answers has three deliveries due;
 *   an honest seller's sale made while the first of those hangs is delivered within 5 s, and the
 *   hanging seller gets one attempt at a time (it used to wait for all three, one after another:
 *   about 30 s, 50 s in the review);
 * - a seller's due deliveries go in feed order (`seq`), one at a time, whenever each fell due;
 * - the whole attempt, the DNS lookup of the address check included, ends within the timeout;
 * - on PostgreSQL, two instances never send a delivery the other still works on: each claimed
 *   delivery is sent at once, inside its lease, even when every attempt takes its full timeout;
 * - `webhook/redeliver` is limited per user; an endpoint failing for 24 h is turned off and mailed.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, onPostgres, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import * as repo from './events.repository';
import { quoted } from '../mail/mail-text';
import { REDELIVERS_PER_WINDOW } from './events.routes';
import { createEventsService, DISABLE_AFTER_MS, RETRY_DELAYS_MS } from './events.service';

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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('one seller cannot stall the others (default 10 s timeout)', () => {
  let t: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    // A database of its own on PostgreSQL: its passes claim every due delivery.
    scratch = await createScratchDatabase('coffer_hooks_fair');
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  });
  afterAll(async () => {
    await t.close();
    await scratch?.drop();
  });

  it("delivers an honest seller's sale within 5 s while another seller's endpoint hangs, which gets one attempt at a time", async () => {
    const hangingStarts: number[] = [];
    let honestAt: number | null = null;
    const hanging = await receiver(() => {
      hangingStarts.push(performance.now());
      // Never answers.
    });
    const honest = await receiver((_req, res) => {
      honestAt ??= performance.now();
      res.writeHead(204).end();
    });
    const stop = new AbortController();
    try {
      const slow = await sellerWithHook(t, hanging.url);
      const good = await sellerWithHook(t, honest.url);
      for (let i = 0; i < 3; i++) await sale(t, slow.collectionId);
      const pass = t.app.ctx.services.events.deliverDue(stop.signal);
      // The first hanging attempt is in flight (it holds for 10 s); now the honest seller sells.
      while (!hangingStarts.length) await sleep(20);
      const soldAt = performance.now();
      await sale(t, good.collectionId);
      while (honestAt === null && performance.now() - soldAt < 5_000) await sleep(20);
      expect(honestAt, 'the honest delivery did not arrive within 5 s').not.toBeNull();
      expect(honestAt! - soldAt).toBeLessThan(5_000);
      // Three deliveries of the hanging seller are due, but only one is in flight.
      await sleep(500);
      expect(hangingStarts).toHaveLength(1);
      stop.abort();
      expect(await pass).toMatchObject({ delivered: 1 });
    } finally {
      stop.abort();
      await hanging.close();
      await honest.close();
    }
  }, 30_000);

  it('an attempt cut short by shutdown is retried but does not count against the endpoint', async () => {
    let started = false;
    const hanging = await receiver(() => {
      started = true;
    });
    const stop = new AbortController();
    try {
      const { seller, collectionId } = await sellerWithHook(t, hanging.url);
      await sale(t, collectionId);
      const pass = t.app.ctx.services.events.deliverDue(stop.signal);
      while (!started) await sleep(20);
      stop.abort();
      await pass;
      const [d] = (await ok(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
      expect(d).toMatchObject({ status: 'pending', last_error: 'aborted' });
      expect((await repo.findEndpoint(t.app.ctx.database.db, seller.id))?.failingSince).toBeNull();
    } finally {
      stop.abort();
      await hanging.close();
    }
  }, 30_000);

  it("sends a seller's due deliveries one at a time in feed order, whenever each fell due", async () => {
    const got: string[] = [];
    let fail = true;
    const rx = await receiver((req, res) => {
      got.push(String(req.headers['webhook-id']));
      res.writeHead(fail ? 500 : 204).end();
      fail = false;
    });
    try {
      const { seller, collectionId } = await sellerWithHook(t, rx.url);
      const events = t.app.ctx.services.events;
      await sale(t, collectionId);
      await events.deliverDue();
      // The first failed: retried in 5 s. The second sale's delivery falls due before that retry.
      t.clock.advance(1_000);
      await sale(t, collectionId);
      const db = t.app.ctx.database.db;
      await db.transaction((tx) => repo.enqueueNew(tx, new Date(t.clock.now()), 86_400_000));
      t.clock.advance(RETRY_DELAYS_MS[0]);
      expect(await events.deliverDue()).toMatchObject({ delivered: 2 });
      const feed = (await ok<{ events: { id: string }[] }>(t, uc('/events/list'), {}, seller.token)).events.map((e) => e.id);
      expect(got).toEqual([feed[0], feed[0], feed[1]]);
    } finally {
      await rx.close();
    }
  }, 30_000);

  it("the address check's DNS lookup counts in the timeout: a lookup that never answers ends the attempt", async () => {
    const posted: string[] = [];
    const events = createEventsService({
      db: t.app.ctx.database.db,
      clock: t.clock,
      log: pino({ level: 'silent' }) as unknown as FastifyBaseLogger,
      allowPrivate: false,
      timeoutMs: 300,
      resolve: () => new Promise<string[]>(() => undefined),
      fetch: (async (url: string) => {
        posted.push(url);
        return new Response(null, { status: 204 });
      }) as unknown as typeof fetch,
    });
    const { seller, collectionId } = await sellerWithHook(t, 'https://slow-dns.example/hook');
    await sale(t, collectionId);
    const pass = events.deliverDue();
    const outcome = await Promise.race([pass, sleep(5_000).then(() => 'still running' as const)]);
    expect(outcome).not.toBe('still running');
    expect(posted).toEqual([]);
    const [d] = (await ok(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, last_error: 'timeout' });
  }, 30_000);
});

describe('webhook/redeliver is limited per user', () => {
  let t: TestApp;
  let scratch: ScratchDatabase | undefined;
  beforeAll(async () => {
    // A database of its own on PostgreSQL: another file's passes (its clock a day ahead) would fail
    // this seller's deliveries and turn its endpoint off.
    scratch = await createScratchDatabase('coffer_hooks_redo');
    t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
  });
  afterAll(async () => {
    await t.close();
    await scratch?.drop();
  });

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

  it('is turned off and its owner mailed once; nothing is sent or queued meanwhile; saving the URL turns it on and the missed events go out in order', async () => {
    let status = 500;
    const got: string[] = [];
    const flaky = await receiver((req, res) => {
      got.push(String(req.headers['webhook-id']));
      res.writeHead(status).end();
    });
    try {
      const { seller, collectionId } = await sellerWithHook(t, flaky.url);
      const events = t.app.ctx.services.events;
      const deliveries = async () =>
        (await ok<{ deliveries: { event_id: string; status: string }[] }>(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
      await sale(t, collectionId);
      await events.deliverDue();
      expect(got).toHaveLength(1);
      // Still failing a day later: the next failure turns the endpoint off; the sale behind it waits.
      t.clock.advance(DISABLE_AFTER_MS + 60_000);
      await sale(t, collectionId);
      await events.deliverDue();
      expect(got).toHaveLength(2);
      const view = (await ok(t, uc('/webhook/get'), {}, seller.token)).endpoint;
      expect(view.disabled_at).toBe(t.clock.now());
      expect((await deliveries()).map((d) => d.status)).toEqual(['pending', 'failed']);
      await t.app.ctx.services.mailQueue.settled();
      const dir = path.join(t.dataDir, 'outbox');
      const mails = (await Promise.all((await readdir(dir)).map((f) => readFile(path.join(dir, f), 'utf8')))).filter((m) =>
        m.includes(`To: ${seller.email}`),
      );
      const notice = mails.filter((m) => m.includes('stopped sending to it'));
      expect(notice).toHaveLength(1);
      expect(notice[0]).toContain(quoted(flaky.url));
      // Off: nothing is sent, and a new sale gets no delivery row yet, however long it waits.
      await sale(t, collectionId);
      t.clock.advance(3_600_000);
      await events.deliverDue();
      expect(got).toHaveLength(2);
      expect(await deliveries()).toHaveLength(2);
      const redo = await t.call(uc('/webhook/redeliver'), { event_id: (await deliveries())[0]!.event_id }, seller.token);
      expect([redo.status, redo.body.reason]).toEqual([409, 'CONFLICT']);
      // The owner fixes the endpoint and saves the URL: on again, the waiting and the missed sale go out, in order.
      status = 200;
      expect((await ok(t, uc('/webhook/set'), { url: flaky.url }, seller.token)).endpoint.disabled_at).toBeNull();
      expect(await events.deliverDue()).toMatchObject({ delivered: 2 });
      const feed = (await ok<{ events: { id: string }[] }>(t, uc('/events/list'), {}, seller.token)).events.map((e) => e.id);
      expect(got.slice(2)).toEqual(feed.slice(1));
    } finally {
      await flaky.close();
    }
  }, 30_000);

  it('is not turned off when a delivery succeeded within the last 24 h', async () => {
    let status = 500;
    const flaky = await receiver((_req, res) => res.writeHead(status).end());
    try {
      const { seller, collectionId } = await sellerWithHook(t, flaky.url);
      const events = t.app.ctx.services.events;
      await sale(t, collectionId);
      await events.deliverDue();
      // Half a day later it answers once, then fails again for more than a day since the first failure.
      t.clock.advance(DISABLE_AFTER_MS / 2);
      status = 200;
      await sale(t, collectionId);
      expect(await events.deliverDue()).toMatchObject({ delivered: 2 });
      status = 500;
      t.clock.advance(DISABLE_AFTER_MS / 2 + 3_600_000);
      await sale(t, collectionId);
      expect(await events.deliverDue()).toMatchObject({ retry: 1 });
      expect((await ok(t, uc('/webhook/get'), {}, seller.token)).endpoint.disabled_at).toBeNull();
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

  it('never sends a delivery again while the instance that claimed it may still be sending it, even when every attempt takes its full timeout', async () => {
    // Every request makes both clocks jump by the full timeout (10 s), the longest an attempt may
    // take: a delivery claimed but not yet sent would see its lease (timeout + 30 s) run out after a
    // few attempts of the same claim, and the other instance would send it again.
    const timeoutMs = a.app.ctx.config.WEBHOOK_TIMEOUT_MS;
    b.clock.set(a.clock.now());
    const seen: string[] = [];
    const rx = await receiver((req, res) => {
      seen.push(String(req.headers['webhook-id']));
      a.clock.advance(timeoutMs);
      b.clock.advance(timeoutMs);
      setTimeout(() => res.writeHead(200).end(), 100);
    });
    try {
      const { collectionId } = await sellerWithHook(a, rx.url);
      for (let i = 0; i < 8; i++) await sale(a, collectionId);
      let done = false;
      const first = a.app.ctx.services.events.deliverDue().finally(() => (done = true));
      const other = (async () => {
        const counts = { delivered: 0 };
        while (!done) {
          counts.delivered += (await b.app.ctx.services.events.deliverDue()).delivered;
          await sleep(10);
        }
        counts.delivered += (await b.app.ctx.services.events.deliverDue()).delivered;
        return counts;
      })();
      const [ra, rb] = await Promise.all([first, other]);
      expect(seen).toHaveLength(8);
      expect(new Set(seen).size).toBe(8);
      expect(ra.delivered + rb.delivered).toBe(8);
    } finally {
      await rx.close();
    }
  }, 60_000);
});
