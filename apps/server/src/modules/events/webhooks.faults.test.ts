/**
 * Webhook delivery under injected faults (ADR 0025), seeded: a fake receiver answers each attempt
 * with 2xx, 500, a refused connection, a timeout, or handles the request and loses the answer,
 * while sales keep coming and the clock moves. After the receiver heals and the clock runs through
 * the retries, every event was received at least once with its own webhook-id and a valid
 * signature, every delivery is `delivered`, and the feed is unchanged. Also: a pass that dies
 * mid-attempt leaves its claim, which the next pass takes after the lease.
 */
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { createTestApp, createUser, fund, type TestApp, type TestUser } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import * as repo from './events.repository';
import { createEventsService, RETRY_DELAYS_MS } from './events.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
});
afterAll(() => t.close());

const silentLogger = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
const uc = (p: string) => `/api/uc/v1/account${p}`;

/** mulberry32: the schedule of seed `s`. */
function rng(s: number) {
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

type Fault = 'ok' | '500' | 'refused' | 'timeout' | 'lost';
interface Got {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  at: number;
}

/** A fetch that records what a receiver would have handled and fails as `next()` says. */
function fakeReceiver(next: () => Fault, now: () => number) {
  const got: Got[] = [];
  const fetchImpl = (async (_url: string, init: RequestInit) => {
    const h = init.headers as Record<string, string>;
    const fault = next();
    const record = () =>
      got.push({
        id: h['webhook-id']!,
        timestamp: h['webhook-timestamp']!,
        signature: h['webhook-signature']!,
        body: String(init.body),
        at: now(),
      });
    if (fault === 'refused') throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    if (fault === 'timeout') throw Object.assign(new Error('timed out'), { name: 'TimeoutError' });
    record();
    if (fault === 'lost') throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
    return new Response(null, { status: fault === 'ok' ? 200 : 500 });
  }) as typeof fetch;
  return { got, fetchImpl };
}

async function readFeed(user: TestUser) {
  const events: { id: string }[] = [];
  let cursor: string | undefined;
  for (;;) {
    const p = await ok(t, uc('/events/list'), { ...(cursor ? { cursor } : {}), limit: 100 }, user.token);
    events.push(...p.events);
    cursor = p.next_cursor;
    if (!p.has_more) return events;
  }
}

describe('webhook delivery under injected faults (seeded)', () => {
  it.each(Array.from({ length: 12 }, (_, i) => i + 1))(
    'schedule %i: every event delivered at least once, same id, signed',
    async (seed) => {
      const rnd = rng(seed);
      const faults: Fault[] = ['ok', '500', 'refused', 'timeout', 'lost'];
      let healed = false;
      const rx = fakeReceiver(
        () => (healed ? 'ok' : faults[Math.floor(rnd() * faults.length)]!),
        () => t.clock.now(),
      );
      const events = createEventsService({
        db: t.app.ctx.database.db,
        clock: t.clock,
        log: silentLogger,
        allowPrivate: true,
        timeoutMs: 1_000,
        fetch: rx.fetchImpl,
      });

      const seller = await createUser(t);
      const { secret } = await ok(t, uc('/webhook/set'), { url: 'http://localhost:9/hook' }, seller.token);
      const c = await publishedCollection(t, seller, 1 + Math.floor(rnd() * 9), `Seed ${seed}`);
      const sales = 3 + Math.floor(rnd() * 6);
      for (let i = 0; i < sales; i++) {
        const buyer = await createUser(t);
        await fund(t, buyer.id, '20');
        expect((await buyAndPay(t, buyer, c.id)).body.code).toBe(10000);
        if (rnd() < 0.6) await events.deliverDue();
        t.clock.advance(Math.floor(rnd() * 400_000));
        if (rnd() < 0.5) await events.deliverDue();
      }
      const feedBefore = await readFeed(seller);
      healed = true;
      for (const wait of [0, ...RETRY_DELAYS_MS]) {
        t.clock.advance(wait);
        await events.deliverDue();
      }

      const feed = await readFeed(seller);
      expect(feed).toEqual(feedBefore);
      expect(feed).toHaveLength(sales);
      const mine = rx.got.filter((g) => feed.some((e) => e.id === g.id));
      for (const g of mine) {
        const spy = vi.spyOn(Date, 'now').mockReturnValue(g.at);
        try {
          expect(
            new Webhook(secret).verify(g.body, {
              'webhook-id': g.id,
              'webhook-timestamp': g.timestamp,
              'webhook-signature': g.signature,
            }),
          ).toMatchObject({ id: g.id });
        } finally {
          spy.mockRestore();
        }
      }
      expect(new Set(mine.map((g) => g.id))).toEqual(new Set(feed.map((e) => e.id)));
      const { deliveries } = await ok(t, uc('/webhook/deliveries'), { paginator: { page: 0, size: 100 } }, seller.token);
      expect(deliveries.map((d: { status: string }) => d.status)).toEqual(Array(sales).fill('delivered'));
    },
  );

  it('an attempt that dies after its claim is taken again when the lease ends', async () => {
    const rx = fakeReceiver(
      () => 'ok',
      () => t.clock.now(),
    );
    const events = createEventsService({
      db: t.app.ctx.database.db,
      clock: t.clock,
      log: silentLogger,
      allowPrivate: true,
      timeoutMs: 1_000,
      fetch: rx.fetchImpl,
    });
    const seller = await createUser(t);
    await ok(t, uc('/webhook/set'), { url: 'http://localhost:9/hook' }, seller.token);
    const c = await publishedCollection(t, seller, 5, 'Crash');
    const buyer = await createUser(t);
    await fund(t, buyer.id, '20');
    await buyAndPay(t, buyer, c.id);
    const [event] = await readFeed(seller);
    // Enqueue and claim as a pass would, then "crash" before sending.
    const db = t.app.ctx.database.db;
    const now = t.clock.now();
    await db.transaction((tx) => repo.enqueueNew(tx, new Date(now), 86_400_000));
    // Claim every due delivery in the shared database (older tests' rows included), as a dying pass would.
    for (;;) {
      const claimed = await db.transaction((tx) => repo.claimDue(tx, new Date(now), new Date(now + 31_000), 100));
      if (claimed.length < 100) break;
    }
    await events.deliverDue();
    expect(rx.got.filter((g) => g.id === event!.id)).toHaveLength(0);
    t.clock.advance(31_000);
    await events.deliverDue();
    expect(rx.got.filter((g) => g.id === event!.id)).toHaveLength(1);
    const [d] = (await ok(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
    expect(d).toMatchObject({ event_id: event!.id, status: 'delivered', attempts: 2 });
  });
});
