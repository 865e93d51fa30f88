import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../modules/ledger/ledger.verify';
import { createTestApp, md5, uniq, type TestApp } from '../test/harness';
import { COLLECTIONS, PEOPLE, TIMELINE } from './demo-assets/catalog';
import { countUsers, DEMO_PASSWORD, refusal, seedDemo, type SeedSummary } from './demo-seed';

let t: TestApp;
let summary: SeedSummary;
const suffix = uniq();

beforeAll(async () => {
  t = await createTestApp();
  summary = await seedDemo(t.app, { clock: t.clock, imageScale: 0.2, suffix });
}, 120_000);
afterAll(() => t.close());

const uc = (p: string) => `/api/uc/v1/account${p}`;
const published = COLLECTIONS.filter((c) => !c.draft);
const drafts = COLLECTIONS.filter((c) => c.draft);
const buysOf = (key: string) => TIMELINE.filter((e) => e.kind === 'buy' && e.collection === key).length;

async function login(username: string): Promise<string> {
  const res = await t.call(uc('/login'), { account: username, password: md5(DEMO_PASSWORD) });
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.access_token;
}
const userOf = (key: string) =>
  summary.users.find((u) => u.username === `${PEOPLE.find((p) => p.key === key)!.username}_${suffix}`)!;

describe('demo:seed', () => {
  it('creates every demo person, who can log in with the demo password and has an avatar', async () => {
    expect(summary.users).toHaveLength(PEOPLE.length);
    const sam = userOf('sam');
    const me = await t.call(uc('/get/me'), {}, await login(sam.username));
    expect(me.body.data).toMatchObject({ id: sam.id, nickname: 'Sam Rivera', email: sam.email });
    const avatar = await t.app.inject({ method: 'GET', url: new URL(me.body.data.avatar).pathname });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/png');
  });

  it('publishes the catalog with banners, files and real sold counts and earnings; drafts stay unpublished', async () => {
    expect(summary.collections.published).toBe(published.length);
    expect(summary.collections.drafts).toBe(drafts.length);
    expect(published.length).toBeGreaterThanOrEqual(10);
    for (const c of COLLECTIONS) {
      const seller = userOf(c.seller);
      const token = await login(seller.username);
      const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds[c.key] }, token);
      expect(detail.body.code).toBe(10000);
      const col = detail.body.data.collection;
      expect(col).toMatchObject({
        title: c.title,
        amount: c.price,
        status: c.draft ? 'Created' : 'Published',
        sold_count: buysOf(c.key),
      });
      expect(col.earned).toBe(c.price * buysOf(c.key));
      expect(col.banner).toMatch(/\/media\//);
      if (!c.draft) expect(detail.body.data.resources.length).toBeGreaterThanOrEqual(2);
    }
    const mira = userOf('mira');
    const shop = await t.call('/sl/v1/user/collections', { user_id: mira.id, paginator: { page: 0, size: 10 } });
    expect(shop.body.data.count).toBe(published.filter((c) => c.seller === 'mira').length);
  });

  it('records top-ups, purchases, sales and cash-outs in each history, and the ledger verifies', async () => {
    expect(summary.topUps).toEqual({
      paid: TIMELINE.filter((e) => e.kind === 'top-up').length,
      expired: TIMELINE.filter((e) => e.kind === 'top-up-expired').length,
    });
    expect(summary.purchases).toBe(TIMELINE.filter((e) => e.kind === 'buy').length);
    expect(summary.cashOuts).toBe(TIMELINE.filter((e) => e.kind === 'cash-out').length);

    const noor = userOf('noor');
    const records = await t.call(
      uc('/record/list'),
      { user_id: noor.id, filter: { cate: 'RecordCateAll' }, paginator: { page: 0, size: 20 } },
      await login(noor.username),
    );
    const rows = records.body.data.records as { type: string; status: string }[];
    expect(rows.filter((r) => r.type === 'TopUp' && r.status === 'RecordStatusSuccess')).toHaveLength(2);
    expect(rows.filter((r) => r.type === 'TopUp' && r.status === 'RecordStatusFailure')).toHaveLength(1);
    expect(rows.filter((r) => r.type === 'Purchase')).toHaveLength(noor.bought);

    const ada = userOf('ada');
    const adaRows = (
      await t.call(
        uc('/record/list'),
        { user_id: ada.id, filter: { cate: 'RecordCateAll' }, paginator: { page: 0, size: 20 } },
        await login(ada.username),
      )
    ).body.data.records as { type: string; status: string }[];
    expect(adaRows.filter((r) => r.type === 'CashOut' && r.status === 'RecordStatusSuccess')).toHaveLength(1);
    expect(adaRows.filter((r) => r.type === 'Sale').length).toBeGreaterThan(0);

    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('dates the story over past weeks, never in the future', async () => {
    const sam = userOf('sam');
    const orders = await t.call('/sl/v1/my/orders', { paginator: { page: 0, size: 10 } }, await login(sam.username));
    const times = (orders.body.data.orders as { created_at: number }[]).map((o) => o.created_at);
    expect(times.length).toBe(sam.bought);
    expect(Math.min(...times)).toBeLessThan(Date.now() - 14 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
  });

  it('lets a buyer download real files whose bytes match their MD5 (PNG, PDF and ZIP parse)', async () => {
    const kenji = userOf('kenji');
    const token = await login(kenji.username);
    const seen = new Set<string>();
    for (const key of ['ts-utils', 'cheat-sheets', 'capitals']) {
      const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds[key] }, token);
      expect(detail.body.data.purchased).toBe(true);
      for (const r of detail.body.data.resources as { id: string; name: string; md5: string; content_type: string }[]) {
        const link = await t.call(
          '/sl/v1/resource/download/url',
          { collection_id: summary.collectionIds[key], resource_id: r.id },
          token,
        );
        const u = new URL(link.body.data.url);
        const file = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` });
        expect(file.statusCode).toBe(200);
        expect(createHash('md5').update(file.rawPayload).digest('hex')).toBe(r.md5);
        seen.add(r.content_type);
        if (r.content_type === 'application/zip') expect(Object.keys(unzipSync(file.rawPayload)).length).toBeGreaterThan(1);
        if (r.content_type === 'application/pdf')
          expect((await PDFDocument.load(file.rawPayload)).getPageCount()).toBeGreaterThan(0);
      }
    }
    expect(seen).toEqual(new Set(['application/zip', 'text/markdown', 'application/pdf', 'text/csv', 'application/json']));
    const banner = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds.wallpapers }, token);
    const img = await t.app.inject({ method: 'GET', url: new URL(banner.body.data.collection.banner).pathname });
    const png = PNG.sync.read(img.rawPayload);
    expect([png.width, png.height]).toEqual([256, 144]);
  });
});

describe('demo:seed refusals', () => {
  const base = { nodeEnv: 'development', payments: 'sandbox', userCount: 0, force: false };

  it('runs only on an empty database unless forced, never in production, only with the sandbox', async () => {
    expect(refusal(base)).toBeNull();
    expect(refusal({ ...base, userCount: 3 })).toMatch(/already has 3 user\(s\).*--force/);
    expect(refusal({ ...base, userCount: 3, force: true })).toBeNull();
    expect(refusal({ ...base, nodeEnv: 'production', force: true })).toMatch(/NODE_ENV=production/);
    expect(refusal({ ...base, payments: 'evm' })).toMatch(/PAYMENTS=sandbox/);
    expect(await countUsers(t.app)).toBeGreaterThanOrEqual(PEOPLE.length);
  });
});
