/**
 * Licence keys (product §28) through the real app: the owner's settings, a key per paid order (format,
 * alphabet, unique) issued by the pay batch, shown on my/orders and my/sales, in the receipt mail;
 * licence/validate (unknown, valid, activations per distinct instance, idempotent for the same
 * instance, the activation limit, revoked on refund) and its per-IP rate limit; bad input answers 400.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createUser, fund, type TestApp } from '../../test/harness';
import { buyAndPay, ok, publishedCollection } from '../collections/collections.fixtures';
import { verifyLedger } from '../ledger/ledger.verify';
import { KEY_ALPHABET, newLicenceKey } from './licences.service';
import { LICENCE_VALIDATE_PER_MINUTE } from './licences.routes';

let t: TestApp;
const KEY_RE = new RegExp(`^[${KEY_ALPHABET}]{5}(-[${KEY_ALPHABET}]{5}){3}$`);

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const validate = (body: Record<string, unknown>, ip = '10.0.0.1') =>
  t.app
    .inject({ method: 'POST', url: '/sl/v1/licence/validate', payload: body, remoteAddress: ip })
    .then((r) => ({ status: r.statusCode, body: r.json() }));

/** A seller's collection with keys on (limit `max`), and a buyer's paid order with its key. */
async function keyed(max: number | null = 2) {
  const seller = await createUser(t);
  const c = await publishedCollection(t, seller, 10, 'Plugin');
  await ok(t, '/sl/v1/licence/settings', { collection_id: c.id, enabled: true, max_activations: max }, seller.token);
  const buyer = await createUser(t);
  await fund(t, buyer.id, '100');
  const paid = await buyAndPay(t, buyer, c.id);
  expect(paid.body.code).toBe(10000);
  const mine = await ok(t, '/sl/v1/my/orders', {}, buyer.token);
  return { seller, buyer, c, order: mine.orders[0], key: mine.orders[0].licence_key as string };
}

describe('licence keys', () => {
  it('draws keys from the unambiguous alphabet in 4 groups of 5', () => {
    expect(KEY_ALPHABET).toHaveLength(32);
    expect(KEY_ALPHABET).not.toMatch(/[01IO]/);
    const keys = new Set(Array.from({ length: 500 }, () => newLicenceKey()));
    expect(keys.size).toBe(500);
    for (const k of keys) expect(k).toMatch(KEY_RE);
  });

  it('lets only the owner read and change the settings; validates them', async () => {
    const seller = await createUser(t);
    const other = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    expect(await ok(t, '/sl/v1/licence/settings/get', { collection_id: c.id }, seller.token)).toEqual({
      collection_id: c.id,
      enabled: false,
      max_activations: null,
    });
    expect((await t.call('/sl/v1/licence/settings', { collection_id: c.id, enabled: true }, other.token)).status).toBe(404);
    expect((await t.call('/sl/v1/licence/settings/get', { collection_id: c.id }, other.token)).status).toBe(404);
    for (const body of [
      { collection_id: c.id },
      { collection_id: c.id, enabled: 'yes' },
      { collection_id: c.id, enabled: true, max_activations: 0 },
      { collection_id: c.id, enabled: true, max_activations: 2.5 },
    ]) {
      const res = await t.call('/sl/v1/licence/settings', body, seller.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.reason).toBe('VALIDATION_FAILED');
    }
    expect(
      await ok(t, '/sl/v1/licence/settings', { collection_id: c.id, enabled: true, max_activations: 3 }, seller.token),
    ).toMatchObject({
      enabled: true,
      max_activations: 3,
    });
  });

  it('issues one key per paid order of a keyed collection, shown to the buyer and the seller and mailed', async () => {
    const { seller, buyer, order, key } = await keyed();
    expect(key).toMatch(KEY_RE);
    expect(order.licence_revoked).toBe(false);
    const sales = await ok(t, '/sl/v1/my/sales', {}, seller.token);
    expect(sales.orders[0].licence_key).toBe(key);
    // Paying again answers the paid order, the key unchanged.
    expect((await ok(t, '/sl/v1/my/orders', {}, buyer.token)).orders[0].licence_key).toBe(key);
    await t.app.ctx.services.licences.mailSettled();
    const dir = path.join(t.dataDir, 'outbox');
    const mails = await Promise.all((await readdir(dir)).map((f) => readFile(path.join(dir, f), 'utf8')));
    const receipt = mails.find((m) => m.includes(key));
    expect(receipt).toBeDefined();
    expect(receipt).toContain(`To: ${buyer.email}`);
    expect(receipt).toContain('Thank you for buying "Plugin" on Coffer.');
  });

  it('issues no key when keys are off', async () => {
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 10);
    const buyer = await createUser(t);
    await fund(t, buyer.id, '100');
    await buyAndPay(t, buyer, c.id);
    const mine = await ok(t, '/sl/v1/my/orders', {}, buyer.token);
    expect(mine.orders[0].status).toBe('OrderStatusPaid');
    expect(mine.orders[0].licence_key).toBeUndefined();
  });

  it('validates keys and counts activations per distinct instance up to the limit', async () => {
    const { c, key } = await keyed(2);
    expect((await validate({ key: 'AAAAA-AAAAA-AAAAA-AAAAA' })).body.data).toEqual({
      valid: false,
      reason: 'not_found',
      collection_id: null,
      activations: 0,
      max_activations: null,
    });
    expect((await validate({ key: key.toLowerCase() })).body.data).toEqual({
      valid: true,
      collection_id: c.id,
      activations: 0,
      max_activations: 2,
    });
    expect((await validate({ key, instance: 'laptop' })).body.data).toMatchObject({ valid: true, activations: 1 });
    expect((await validate({ key, instance: 'laptop' })).body.data).toMatchObject({ valid: true, activations: 1 });
    expect((await validate({ key, instance: 'desktop' })).body.data).toMatchObject({ valid: true, activations: 2 });
    expect((await validate({ key, instance: 'server' })).body.data).toMatchObject({
      valid: false,
      reason: 'activation_limit',
      activations: 2,
    });
    // An instance activated before stays valid at the limit.
    expect((await validate({ key, instance: 'desktop' })).body.data).toMatchObject({ valid: true, activations: 2 });
  });

  it('counts concurrent activations of distinct instances without passing the limit', async () => {
    const { key } = await keyed(3);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => validate({ key, instance: `m${i}` }, `10.1.0.${i}`)));
    expect(answers.filter((a) => a.body.data.valid)).toHaveLength(3);
    expect((await validate({ key })).body.data.activations).toBe(3);
  });

  it('revokes the key in the refund transaction', async () => {
    const { seller, buyer, order, key } = await keyed(null);
    expect((await validate({ key, instance: 'a' })).body.data.valid).toBe(true);
    await ok(t, '/api/uc/v1/account/order/refund', { order_id: order.id }, seller.token);
    expect((await validate({ key, instance: 'a' })).body.data).toMatchObject({ valid: false, reason: 'revoked' });
    expect((await ok(t, '/sl/v1/my/orders', {}, buyer.token)).orders[0]).toMatchObject({
      licence_key: key,
      licence_revoked: true,
    });
    expect((await verifyLedger(t.app.ctx.database.db)).ok).toBe(true);
  });

  it('answers 400 to bad input, never a 500', async () => {
    for (const body of [
      {},
      { key: '' },
      { key: 'x'.repeat(65) },
      { key: 5 },
      { key: 'ABC', instance: '' },
      { key: 'ABC', instance: 'i'.repeat(201) },
    ]) {
      const res = await validate(body, '10.2.0.1');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).not.toBe(10000);
    }
  });

  it('rate limits licence/validate per IP', async () => {
    const ip = '10.3.0.1';
    for (let i = 0; i < LICENCE_VALIDATE_PER_MINUTE; i++) expect((await validate({ key: 'NOPE' }, ip)).status).toBe(200);
    const limited = await validate({ key: 'NOPE' }, ip);
    expect(limited.status).toBe(429);
    expect(limited.body.reason).toBe('RATE_LIMITED');
    expect((await validate({ key: 'NOPE' }, '10.3.0.2')).status).toBe(200);
  });
});
