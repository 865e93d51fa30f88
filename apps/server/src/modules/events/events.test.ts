/**
 * Seller events and webhooks (product §23, ADR 0025) through the real app: `sale` and
 * `payout.status` events written with their change, the cursor feed (paging, resuming from a cursor),
 * webhook settings, and delivery to a local receiver that is killed mid-stream and restarted: every
 * event arrives at least once with the same webhook-id and a valid Standard Webhooks signature, and
 * the feed's order does not change.
 */
import { createPublicKey, verify as verifySignature } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger } from '../ledger/ledger.verify';
import { DELIVERY_WINDOW_MS, RETRY_DELAYS_MS } from './events.service';

let t: TestApp;
let scratch: ScratchDatabase | undefined;
beforeAll(async () => {
  // Its payout passes claim every due bill of the rail: on PostgreSQL a database of its own, so it
  // never pays another test file's bills (PGlite: in memory).
  scratch = await createScratchDatabase('coffer_events');
  // A short attempt limit, so the hanging receiver below times out quickly.
  t = await createTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_TIMEOUT_MS: '1000', ...(scratch ? { DATABASE_URL: scratch.url } : {}) });
});
afterAll(async () => {
  await t.close();
  await scratch?.drop();
});

const uc = (p: string) => `/api/uc/v1/account${p}`;
const services = () => t.app.ctx.services;

interface Evt {
  id: string;
  type: string;
  created_at: number;
  data: Record<string, unknown>;
}
const page = async (user: TestUser, body: { cursor?: string; limit?: number } = {}) =>
  ok<{ events: Evt[]; next_cursor: string; has_more: boolean }>(t, uc('/events/list'), body, user.token);

/** Reads the whole feed from `cursor` in pages of `limit`. */
async function readAll(user: TestUser, limit = 100, cursor?: string): Promise<{ events: Evt[]; cursor: string }> {
  const events: Evt[] = [];
  for (;;) {
    const p = await page(user, { ...(cursor ? { cursor } : {}), limit });
    events.push(...p.events);
    cursor = p.next_cursor;
    if (!p.has_more) return { events, cursor };
  }
}

async function sellerWithSales(n: number, price = 10) {
  const seller = await createUser(t);
  const c = await publishedCollection(t, seller, price, 'Brushes');
  const orders: string[] = [];
  for (let i = 0; i < n; i++) {
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');
    const res = await buyAndPay(t, buyer, c.id);
    expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
    orders.push(res.body.data.id);
  }
  return { seller, collection: c, orders };
}

async function sell(seller: TestUser, collectionId: string): Promise<string> {
  const buyer = await createUser(t);
  await fund(t, buyer.id, '100');
  const res = await buyAndPay(t, buyer, collectionId);
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.id;
}

describe('events/list', () => {
  it('writes one sale event per paid order, for the seller only, in order', async () => {
    const { seller, collection, orders } = await sellerWithSales(3, 30);
    const { events } = await readAll(seller);
    expect(events.map((e) => e.type)).toEqual(['sale', 'sale', 'sale']);
    expect(events.map((e) => e.data.order_id)).toEqual(orders);
    expect(events[0]).toMatchObject({
      id: expect.stringMatching(/^evt_[0-9a-f]{32}$/),
      created_at: expect.any(Number),
      data: { collection_id: collection.id, amount: 30, earned: expect.any(String), fee: expect.any(String) },
    });
    expect(Number(events[0]!.data.earned) + Number(events[0]!.data.fee)).toBe(30);
    // Paying again writes nothing more.
    const again = await t.call(uc('/order/pay'), { order_id: orders[0] }, seller.token);
    expect(again.body.reason).toBe('NOT_FOUND');
    expect((await readAll(seller)).events).toHaveLength(3);
    // The buyers see no sale of theirs.
    const buyer = await createUser(t);
    expect((await page(buyer)).events).toEqual([]);
    await verifyLedger(t.app.ctx.database.db);
  });

  it('pages by cursor; re-reading from a cursor answers exactly the rest; an empty page keeps the cursor', async () => {
    const { seller } = await sellerWithSales(5);
    const all = (await readAll(seller)).events;
    expect(all).toHaveLength(5);

    const first = await page(seller, { limit: 2 });
    expect(first.events.map((e) => e.id)).toEqual(all.slice(0, 2).map((e) => e.id));
    expect(first.has_more).toBe(true);
    // A consumer that crashed after the first page resumes from its cursor: the rest, once each.
    const rest = await readAll(seller, 2, first.next_cursor);
    expect(rest.events.map((e) => e.id)).toEqual(all.slice(2).map((e) => e.id));
    // Nothing new: the same cursor comes back, and a later event appears after it.
    const idle = await page(seller, { cursor: rest.cursor });
    expect(idle).toEqual({ events: [], next_cursor: rest.cursor, has_more: false });
    const c = await publishedCollection(t, seller, 5, 'More');
    const order = await sell(seller, c.id);
    const next = await page(seller, { cursor: rest.cursor });
    expect(next.events.map((e) => e.data.order_id)).toEqual([order]);
  });

  it('answers 50 by default, refuses a limit outside 1-100 and a cursor it did not make', async () => {
    const user = await createUser(t);
    expect((await t.call(uc('/events/list'), { limit: 0 }, user.token)).body.reason).toBe('VALIDATION_FAILED');
    expect((await t.call(uc('/events/list'), { limit: 101 }, user.token)).body.reason).toBe('VALIDATION_FAILED');
    const bad = await t.call(uc('/events/list'), { cursor: 'not-a-cursor' }, user.token);
    expect(bad.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'Invalid cursor' });
    expect((await t.call(uc('/events/list'), {})).status).toBe(401);
  });

  it('writes payout.status events with the bill status changes: processing then succeeded, processing then refunded', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '5000');
    const bills: string[] = [];
    for (const over of [
      { currency: 'usdttrc20', network: 'TRX', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      { currency: 'usdterc20', network: 'ETH', address: '0x000000000000000000000000000000000000dEaD' },
    ]) {
      const bill = await ok(t, uc('/withdraw/create'), { user_id: user.id, amount: '2000', memo: '', ...over }, user.token);
      await ok(t, uc('/withdraw/confirm'), { bill_id: bill.bill.id, password: md5(PASSWORD) }, user.token);
      bills.push(bill.bill.id);
    }
    for (let i = 0; i < 10 && (await services().withdrawals.runPayouts(50)).claimed; i++);
    const { events } = await readAll(user);
    const of = (bill: string) => events.filter((e) => e.data.bill_id === bill).map((e) => e.data.status);
    expect(events.every((e) => e.type === 'payout.status')).toBe(true);
    // The sandbox pays at once: the broadcast step is still written, before the final one (ADR 0060).
    expect(of(bills[0]!)).toEqual(['WithdrawStatusProcessing', 'WithdrawStatusProcessing', 'WithdrawStatusSuccess']);
    expect(of(bills[1]!)).toEqual(['WithdrawStatusProcessing', 'WithdrawStatusRefunded']);
    const paid = events.filter((e) => e.data.bill_id === bills[0]).map((e) => e.data);
    expect(paid[0]).toMatchObject({ network: 'TRX', tx_hash: null, tx_status: null, confirmations: null });
    const hash = paid[2]!.tx_hash;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(paid[1]).toMatchObject({ network: 'TRX', tx_hash: hash, txid: hash, tx_status: 'broadcast', confirmations: 0 });
    expect(paid[2]).toMatchObject({ amount: '2000.00', network: 'TRX', txid: hash, tx_status: 'final', confirmations: null });
    const refunded = events.find((e) => e.data.status === 'WithdrawStatusRefunded')!.data;
    expect(refunded).toMatchObject({ network: 'ETH', tx_hash: null, tx_status: null, failure_reason: expect.any(String) });
    // More passes write nothing more: each step is written once, with its change.
    for (let i = 0; i < 3; i++) await services().withdrawals.runPayouts(50);
    expect((await readAll(user)).events).toHaveLength(events.length);
  });

  it('writes the broadcast step once when a rail reports a hash before the payout is final', async () => {
    const user = await createUser(t);
    await fund(t, user.id, '5000');
    const bill = await ok(
      t,
      uc('/withdraw/create'),
      { user_id: user.id, amount: '2000', memo: '', currency: 'usdttrc20', network: 'TRX', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      user.token,
    );
    await ok(t, uc('/withdraw/confirm'), { bill_id: bill.bill.id, password: md5(PASSWORD) }, user.token);
    const provider = services().payments.provider;
    const hash = 'ab'.repeat(32);
    // A chain rail reports a pending payout with its hash on each recheck, then success at depth 12.
    const send = vi.spyOn(provider, 'sendPayout').mockResolvedValue({ status: 'pending', txid: hash });
    const status = vi.spyOn(provider, 'payoutStatus').mockResolvedValue({ status: 'pending', txid: hash });
    try {
      await services().withdrawals.runPayouts(50);
      t.clock.advance(20_000);
      await services().withdrawals.runPayouts(50);
      status.mockResolvedValue({ status: 'success', txid: hash, confirmations: 12 });
      t.clock.advance(20_000);
      await services().withdrawals.runPayouts(50);
    } finally {
      send.mockRestore();
      status.mockRestore();
    }
    const steps = (await readAll(user)).events.map((e) => [e.data.status, e.data.tx_status, e.data.confirmations, e.data.tx_hash]);
    expect(steps).toEqual([
      ['WithdrawStatusProcessing', null, null, null],
      ['WithdrawStatusProcessing', 'broadcast', 0, hash],
      ['WithdrawStatusSuccess', 'final', 12, hash],
    ]);
  });
});

describe('webhook settings', () => {
  it('sets the URL (the first secret shown once), refuses non-https URLs but localhost here, rotates and clears', async () => {
    const user = await createUser(t);
    expect(await ok(t, uc('/webhook/get'), {}, user.token)).toEqual({
      endpoint: { url: null, has_secret: false, updated_at: null, disabled_at: null, signing: 'hmac', public_key: null },
    });
    const bad = await t.call(uc('/webhook/set'), { url: 'http://example.com/hook' }, user.token);
    expect(bad.body).toMatchObject({ reason: 'VALIDATION_FAILED', msg: 'The URL must start with https://' });
    expect((await t.call(uc('/webhook/set'), { url: 'nonsense' }, user.token)).body.msg).toBe('Enter a valid URL');

    const set = await ok(t, uc('/webhook/set'), { url: 'http://localhost:9/hook' }, user.token);
    expect(set.endpoint).toMatchObject({ url: 'http://localhost:9/hook', has_secret: true, signing: 'hmac', public_key: null });
    expect(set.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const again = await ok(t, uc('/webhook/set'), { url: 'https://hooks.example.com/x' }, user.token);
    expect(again.secret).toBeUndefined();
    const rotated = await ok(t, uc('/webhook/secret/rotate'), {}, user.token);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(set.secret);
    const cleared = await ok(t, uc('/webhook/set'), { url: null }, user.token);
    expect(cleared.endpoint).toMatchObject({ url: null, has_secret: true });
  });
});

/** A local receiver: records each request; `mode` decides its answer. */
function receiver() {
  const got: { id: string; timestamp: string; signature: string; body: string; at: number }[] = [];
  const state = { mode: 'ok' as 'ok' | 'fail' | 'hang', acceptLimit: Infinity };
  const handler = (req: IncomingMessage, res: import('node:http').ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (state.mode === 'hang') return;
      if (state.mode === 'fail' || got.length >= state.acceptLimit) {
        res.writeHead(500).end();
        return;
      }
      got.push({
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
        body,
        at: t.clock.now(),
      });
      res.writeHead(204).end();
    });
  };
  let server: Server = createServer(handler);
  let port = 0;
  return {
    got,
    state,
    async start() {
      server = createServer(handler);
      await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
      return `http://127.0.0.1:${port}/hook`;
    },
    async kill() {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Verifies a received request with the standardwebhooks package at its arrival time. */
function verify(secret: string, r: { id: string; timestamp: string; signature: string; body: string; at: number }) {
  const spy = vi.spyOn(Date, 'now').mockReturnValue(r.at);
  try {
    return new Webhook(secret).verify(r.body, {
      'webhook-id': r.id,
      'webhook-timestamp': r.timestamp,
      'webhook-signature': r.signature,
    }) as Evt;
  } finally {
    spy.mockRestore();
  }
}

describe('webhook delivery', () => {
  it('kill the receiver mid-stream: every event arrives at least once with the same id, signed; the feed order is unchanged', async () => {
    const rx = receiver();
    const url = await rx.start();
    const seller = await createUser(t);
    const { secret } = await ok(t, uc('/webhook/set'), { url }, seller.token);
    const c = await publishedCollection(t, seller, 10, 'Stream');
    for (let i = 0; i < 4; i++) await sell(seller, c.id);
    const { events: before } = await readAll(seller);

    // It takes two deliveries, then dies while more sales happen.
    rx.state.acceptLimit = 2;
    await services().events.deliverDue();
    await rx.kill();
    for (let i = 0; i < 4; i++) await sell(seller, c.id);
    await services().events.deliverDue();
    const pending = await ok(t, uc('/webhook/deliveries'), {}, seller.token);
    expect(pending.deliveries).toHaveLength(8);
    expect(pending.deliveries.filter((d: { status: string }) => d.status === 'delivered')).toHaveLength(2);
    const waiting = pending.deliveries.filter((d: { status: string }) => d.status === 'pending');
    expect(waiting).toHaveLength(6);
    expect(
      waiting.every((d: { attempts: number; next_attempt_at: number }) => d.attempts >= 1 && d.next_attempt_at > t.clock.now()),
    ).toBe(true);
    expect(waiting.some((d: { last_response_code: number | null }) => d.last_response_code === 500)).toBe(true);
    expect(waiting.some((d: { last_error: string }) => d.last_error === 'ECONNREFUSED')).toBe(true);

    // Back up: the retries (5 s, then 5 min) deliver the rest.
    rx.state.acceptLimit = Infinity;
    await rx.start();
    for (const wait of RETRY_DELAYS_MS.slice(0, 2)) {
      t.clock.advance(wait);
      await services().events.deliverDue();
    }
    const { events: after } = await readAll(seller);
    expect(after.map((e) => e.id)).toEqual([...before.map((e) => e.id), ...after.slice(4).map((e) => e.id)]);
    expect(after).toHaveLength(8);
    const received = rx.got.map((r) => verify(secret, r));
    rx.got.forEach((r, i) => expect(received[i]!.id).toBe(r.id));
    expect(new Set(received.map((e) => e.id))).toEqual(new Set(after.map((e) => e.id)));
    for (const e of received) expect(e).toEqual(after.find((a) => a.id === e.id));
    const done = await ok(t, uc('/webhook/deliveries'), {}, seller.token);
    expect(done.deliveries.map((d: { status: string }) => d.status)).toEqual(Array(8).fill('delivered'));
    // Newest event first.
    expect(done.deliveries.map((d: { event_id: string }) => d.event_id)).toEqual(after.map((e) => e.id).reverse());
    await rx.kill();
  });

  it('retries with backoff until 24 h after the event, then fails; redeliver sends it again with the same id', async () => {
    const rx = receiver();
    const url = await rx.start();
    rx.state.mode = 'fail';
    const seller = await createUser(t);
    const { secret } = await ok(t, uc('/webhook/set'), { url }, seller.token);
    const c = await publishedCollection(t, seller, 10, 'Retry');
    await sell(seller, c.id);
    const [event] = (await readAll(seller)).events;
    const start = t.clock.now();
    const attempts: number[] = [];
    for (let i = 0; i < 20; i++) {
      await services().events.deliverDue();
      const [d] = (await ok(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
      if (attempts.at(-1) !== d.attempts) attempts.push(d.attempts);
      if (d.status !== 'pending') break;
      t.clock.set(d.next_attempt_at);
    }
    const [failed] = (await ok(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
    expect(failed).toMatchObject({ event_id: event!.id, status: 'failed', last_response_code: 500, next_attempt_at: null });
    // 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then a last attempt at the 24 h deadline.
    expect(failed.attempts).toBe(8);
    expect(t.clock.now() - start).toBeGreaterThanOrEqual(DELIVERY_WINDOW_MS - 1_000);

    rx.state.mode = 'ok';
    // 24 h of failures turned the endpoint off (docs/abuse.md "Webhook delivery"): redeliver says so,
    // and saving the URL again turns it on.
    const off = await t.call(uc('/webhook/redeliver'), { event_id: event!.id }, seller.token);
    expect([off.status, off.body.reason]).toEqual([409, 'CONFLICT']);
    await ok(t, uc('/webhook/set'), { url }, seller.token);
    const redo = await ok(t, uc('/webhook/redeliver'), { event_id: event!.id }, seller.token);
    expect(redo.delivery).toMatchObject({ status: 'pending', next_attempt_at: t.clock.now() });
    await services().events.deliverDue();
    expect(rx.got.map((r) => r.id)).toEqual([event!.id]);
    expect(verify(secret, rx.got[0]!)).toEqual(event);
    const stranger = await createUser(t);
    expect((await t.call(uc('/webhook/redeliver'), { event_id: event!.id }, stranger.token)).body.reason).toBe('NOT_FOUND');
    await rx.kill();
  });

  it('a receiver that hangs times out and is retried; a purchase never waits for a delivery', async () => {
    const rx = receiver();
    const url = await rx.start();
    rx.state.mode = 'hang';
    const seller = await createUser(t);
    await ok(t, uc('/webhook/set'), { url }, seller.token);
    const c = await publishedCollection(t, seller, 10, 'Hang');
    await sell(seller, c.id);
    const events = services().events;
    const pass = events.deliverDue();
    // The purchase path is independent of the hanging receiver.
    await sell(seller, c.id);
    await pass;
    const ds = (await ok(t, uc('/webhook/deliveries'), {}, seller.token)).deliveries;
    expect(ds.find((d: { attempts: number }) => d.attempts === 1)).toMatchObject({ status: 'pending', last_error: 'timeout' });
    await rx.kill();
  });
});

/**
 * What a receiver does with the Ed25519 scheme (Standard Webhooks `v1a`, ADR 0061): the `whpk_`
 * public key shown by webhook/get checks one of the space-separated `v1a,` signatures of
 * `id.timestamp.body`.
 */
function verifyEd25519(publicKey: string, r: { id: string; timestamp: string; signature: string; body: string }): boolean {
  const raw = Buffer.from(publicKey.replace(/^whpk_/, ''), 'base64');
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });
  return r.signature
    .split(' ')
    .filter((s) => s.startsWith('v1a,'))
    .some((s) => verifySignature(null, Buffer.from(`${r.id}.${r.timestamp}.${r.body}`), key, Buffer.from(s.slice(4), 'base64')));
}

describe('Ed25519 webhook signatures', () => {
  it('signs with the key pair whose public key the settings show; a tampered body fails; rotation switches keys', async () => {
    const rx = receiver();
    const url = await rx.start();
    const seller = await createUser(t);
    const { secret } = await ok(t, uc('/webhook/set'), { url }, seller.token);
    const set = await ok(t, uc('/webhook/set'), { url, signing: 'ed25519' }, seller.token);
    expect(set.endpoint).toMatchObject({ signing: 'ed25519', public_key: expect.stringMatching(/^whpk_[A-Za-z0-9+/]{43}=$/) });
    const shown = (await ok(t, uc('/webhook/get'), {}, seller.token)).endpoint.public_key as string;
    expect(shown).toBe(set.endpoint.public_key);
    // The private key is stored sealed, never as the whsk_ text.
    const row = (await t.app.ctx.database.db.execute(
      sql`select signing_key_sealed from webhook_endpoints where user_id = ${seller.id}`,
    )) as unknown as { rows: { signing_key_sealed: string }[] };
    expect(row.rows[0]!.signing_key_sealed).toMatch(/^v1\./);

    // A payout's events reach the receiver with their chain fields, signed v1a only.
    await fund(t, seller.id, '5000');
    const bill = await ok(
      t,
      uc('/withdraw/create'),
      { user_id: seller.id, amount: '2000', memo: '', currency: 'usdttrc20', network: 'TRX', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' },
      seller.token,
    );
    await ok(t, uc('/withdraw/confirm'), { bill_id: bill.bill.id, password: md5(PASSWORD) }, seller.token);
    for (let i = 0; i < 5 && (await services().withdrawals.runPayouts(50)).claimed; i++);
    await services().events.deliverDue();
    expect(rx.got).toHaveLength(3);
    for (const r of rx.got) {
      expect(r.signature).toMatch(/^v1a,[A-Za-z0-9+/]+=*$/);
      expect(verifyEd25519(shown, r)).toBe(true);
      expect(verifyEd25519(shown, { ...r, body: r.body.replace('2000.00', '9000.00') })).toBe(false);
      expect(verifyEd25519(shown, { ...r, timestamp: String(Number(r.timestamp) + 1) })).toBe(false);
    }
    const final = JSON.parse(rx.got[2]!.body) as Evt;
    expect(final.data).toMatchObject({ status: 'WithdrawStatusSuccess', network: 'TRX', tx_status: 'final', tx_hash: expect.any(String) });

    // Rotation: the new public key verifies what follows, the old one no longer does.
    const rotated = await ok(t, uc('/webhook/signing-key/rotate'), {}, seller.token);
    const next = rotated.endpoint.public_key as string;
    expect(next).toMatch(/^whpk_/);
    expect(next).not.toBe(shown);
    // Both schemes at once: one header, an HMAC and an Ed25519 signature, each verifiable on its own.
    await ok(t, uc('/webhook/set'), { url, signing: 'both' }, seller.token);
    expect((await ok(t, uc('/webhook/get'), {}, seller.token)).endpoint).toMatchObject({ signing: 'both', public_key: next });
    const c = await publishedCollection(t, seller, 10, 'Signed');
    await sell(seller, c.id);
    await services().events.deliverDue();
    const last = rx.got.at(-1)!;
    expect(last.signature.split(' ').map((s) => s.split(',')[0])).toEqual(['v1', 'v1a']);
    expect(verifyEd25519(next, last)).toBe(true);
    expect(verifyEd25519(shown, last)).toBe(false);
    expect(verify(secret, last).type).toBe('sale');

    const stranger = await createUser(t);
    const none = await t.call(uc('/webhook/signing-key/rotate'), {}, stranger.token);
    expect([none.status, none.body.reason]).toEqual([409, 'CONFLICT']);
    expect((await t.call(uc('/webhook/set'), { url, signing: 'rsa' }, seller.token)).body.reason).toBe('VALIDATION_FAILED');
    await rx.kill();
  });
});
