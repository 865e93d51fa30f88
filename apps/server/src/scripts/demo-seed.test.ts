/**
 * `npm run demo:seed`: the whole story on an empty database of its own (PGlite in memory, or a fresh
 * database next to `DATABASE_URL`'s, because the story back-dates its bills and other test files'
 * expiry jobs would expire them), then what the storefront shows, the files, the histories and the
 * ledger; and the refusals of the command line.
 */
import { createHash } from 'node:crypto';
import { unzipSync } from 'fflate';
import { PDFDocument } from 'pdf-lib';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyLedger } from '../modules/ledger/ledger.verify';
import { createTestApp, md5, type TestApp } from '../test/harness';
import { createScratchDatabase } from '../test/scratch-database';
import { COLLECTIONS, PEOPLE, TIMELINE } from './demo-assets/catalog';
import { DEMO_REVIEWS } from './demo-assets/reviews';
import { countUsers, DEMO_PASSWORD, main, refusal, seedDemo, type SeedSummary } from './demo-seed';

let t: TestApp;
let summary: SeedSummary;
let dropDatabase: (() => Promise<void>) | undefined;

/** `memory://`, or a new empty database on the PostgreSQL server of DATABASE_URL (dropped after). */
async function emptyDatabaseUrl(): Promise<string> {
  const scratch = await createScratchDatabase('coffer_demo_seed');
  dropDatabase = scratch?.drop;
  return scratch?.url ?? 'memory://';
}

beforeAll(async () => {
  t = await createTestApp({ DATABASE_URL: await emptyDatabaseUrl() });
  summary = await seedDemo(t.app, { clock: t.clock, imageScale: 0.2 });
}, 180_000);
afterAll(async () => {
  await t?.close();
  await dropDatabase?.();
});

const uc = (p: string) => `/api/uc/v1/account${p}`;
const published = COLLECTIONS.filter((c) => !c.draft);
const drafts = COLLECTIONS.filter((c) => c.draft);
const buysOf = (key: string) => TIMELINE.filter((e) => e.kind === 'buy' && e.collection === key).length;
/** Points the buys of a collection paid: the price, less 20 % for a buy with a code (product §28: PASTEL20). */
const paidFor = (key: string, price: number) =>
  TIMELINE.filter((e) => e.kind === 'buy' && e.collection === key).reduce(
    (sum, e) => sum + (e.kind === 'buy' && e.code ? price - Math.floor((price * 20) / 100) : price),
    0,
  );
const userOf = (key: string) => summary.users.find((u) => u.username === PEOPLE.find((p) => p.key === key)!.username)!;

async function login(username: string): Promise<string> {
  const res = await t.call(uc('/login'), { account: username, password: md5(DEMO_PASSWORD) });
  expect(res.body.code, JSON.stringify(res.body)).toBe(10000);
  return res.body.data.access_token;
}

async function recordsOf(key: string): Promise<{ type: string; status: string; amount: string }[]> {
  const u = userOf(key);
  const res = await t.call(
    uc('/record/list'),
    { user_id: u.id, filter: { cate: 'RecordCateAll' }, paginator: { page: 0, size: 20 } },
    await login(u.username),
  );
  expect(res.body.code).toBe(10000);
  return res.body.data.records;
}

describe('demo:seed', () => {
  it('creates every demo person, who can log in with the demo password and has an avatar', async () => {
    expect(summary.users.map((u) => u.username).sort()).toEqual(PEOPLE.map((p) => p.username).sort());
    expect(await countUsers(t.app)).toBe(PEOPLE.length);
    const sam = userOf('sam');
    const me = await t.call(uc('/get/me'), {}, await login(sam.username));
    expect(me.body.data).toMatchObject({ id: sam.id, nickname: 'Sam Rivera', email: 'sam.rivera@example.com' });
    const avatar = await t.app.inject({ method: 'GET', url: new URL(me.body.data.avatar).pathname });
    expect(avatar.statusCode).toBe(200);
    expect(avatar.headers['content-type']).toBe('image/png');
  });

  it('publishes the catalog with banners, files and real sold counts and earnings; drafts stay unpublished', async () => {
    expect(published.length).toBeGreaterThanOrEqual(10);
    expect(summary.collections.published).toBe(published.length);
    expect(summary.collections.drafts).toBe(drafts.length);
    const market = await t.call('/sl/v1/market/collections', { paginator: { page: 0, size: 50 }, sort: 'popular' });
    expect(market.body.data.count).toBe(published.length);
    expect(market.body.data.collections[0]).toMatchObject({
      title: 'Soft Gradient Wallpapers',
      sold_count: buysOf('wallpapers'),
    });

    for (const c of COLLECTIONS) {
      const token = await login(userOf(c.seller).username);
      const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds[c.key] }, token);
      expect(detail.body.code).toBe(10000);
      const col = detail.body.data.collection;
      expect(col).toMatchObject({
        title: c.title,
        amount: c.price,
        status: c.draft ? 'Created' : 'Published',
        sold_count: buysOf(c.key),
      });
      expect(col.earned).toBe(paidFor(c.key, c.price));
      expect(col.banner).toMatch(/\/media\//);
      if (!c.draft) expect(detail.body.data.resources.length).toBeGreaterThanOrEqual(2);
    }
  });

  it('marks the first file of each published collection as a free preview, and one file has a version 2 (product §24)', async () => {
    const versions: number[] = [];
    for (const c of published) {
      const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds[c.key] });
      const files = detail.body.data.resources as { preview: boolean; version: number }[];
      expect(files[0]!.preview).toBe(true);
      versions.push(...files.map((f) => f.version));
    }
    expect(versions.filter((v) => v === 2)).toHaveLength(1);
  });

  it("leaves one refund request waiting in the icons seller's sales (product §25)", async () => {
    const seller = userOf(COLLECTIONS.find((c) => c.key === 'icons')!.seller);
    const sales = await t.call(
      '/sl/v1/my/sales',
      { paginator: { page: 0, size: 10 }, pending_requests: true },
      await login(seller.username),
    );
    const waiting = sales.body.data.orders as {
      status: string;
      collection_id: string;
      refund_request: { reason: string } | null;
    }[];
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ status: 'OrderStatusPaid', collection_id: summary.collectionIds.icons });
    expect(waiting[0]!.refund_request?.reason).toMatch(/filled style/);
  });

  // Reviews and the sales dashboard (product §29).
  it('writes the reviews with their integer totals and one seller reply; the dashboard counts every sale', async () => {
    for (const key of new Set(DEMO_REVIEWS.map((r) => r.collection))) {
      const mine = DEMO_REVIEWS.filter((r) => r.collection === key);
      const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds[key] });
      expect(detail.body.data.collection).toMatchObject({
        rating_count: mine.length,
        rating_sum: mine.reduce((n, r) => n + r.rating, 0),
      });
    }
    const list = await t.call('/sl/v1/review/list', { collection_id: summary.collectionIds.wallpapers });
    const replies = (list.body.data.reviews as { reply: { text: string } | null }[]).filter((r) => r.reply);
    expect(replies).toHaveLength(1);
    const rated = await t.call('/sl/v1/market/collections', { sort: 'rating', paginator: { page: 0, size: 50 } });
    expect(rated.body.data.collections[0].rating_count).toBeGreaterThan(0);

    const mira = userOf('mira');
    const board = await t.call('/sl/v1/my/sales/dashboard', { days: 30 }, await login(mira.username));
    const miraBuys = TIMELINE.filter(
      (e) => e.kind === 'buy' && COLLECTIONS.find((c) => c.key === e.collection)!.seller === 'mira',
    ).length;
    expect(board.body.data.totals.sales).toBe(miraBuys);
    expect(board.body.data.series.filter((d: { sales: number }) => d.sales > 0).length).toBeGreaterThan(2);
  });

  it('records top-ups, purchases, sales and cash-outs in each history, and the ledger verifies', async () => {
    expect(summary.topUps).toEqual({
      paid: TIMELINE.filter((e) => e.kind === 'top-up').length,
      expired: TIMELINE.filter((e) => e.kind === 'top-up-expired').length,
    });
    expect(summary.purchases).toBe(TIMELINE.filter((e) => e.kind === 'buy').length);
    expect(summary.cashOuts).toBe(TIMELINE.filter((e) => e.kind === 'cash-out').length);
    // One open report for `npm run admin -- reports` (product §27).
    const reports = await t.app.ctx.services.moderation.reports();
    expect(reports.map((r) => [r.reason, r.status])).toEqual([['copyright', 'open']]);

    const noor = await recordsOf('noor');
    expect(noor.filter((r) => r.type === 'TopUp' && r.status === 'RecordStatusSuccess')).toHaveLength(2);
    expect(noor.filter((r) => r.type === 'TopUp' && r.status === 'RecordStatusFailure')).toHaveLength(1);
    expect(noor.filter((r) => r.type === 'Purchase')).toHaveLength(userOf('noor').bought);
    const ada = await recordsOf('ada');
    expect(ada.filter((r) => r.type === 'CashOut' && r.status === 'RecordStatusSuccess')).toHaveLength(1);
    expect(ada.filter((r) => r.type === 'Sale')).toHaveLength(buysOf('contracts') + buysOf('pitch') + buysOf('planner'));

    const report = await verifyLedger(t.app.ctx.database.db);
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
    // Money in = top-ups; money out = cash-outs net of their network fees (sandbox: TRX 1 USD, BSC 0.5 USD).
    expect(report.platformBalances).toEqual({ deposits: -1_050_000n, withdrawals: 285_000n, fees: 15_000n });
    const held = summary.users.reduce((sum, u) => sum + Math.round((Number(u.available) + Number(u.pending)) * 100), 0);
    expect(held).toBe(1_050_000 - 300_000);
    // The last week's sales are still pending (product.md "Clearance"); the older ones cleared.
    expect(summary.users.some((u) => Number(u.pending) > 0)).toBe(true);
    expect(summary.users.filter((u) => u.role === 'seller').every((u) => Number(u.available) + Number(u.pending) > 0)).toBe(true);
  });

  it('dates the story over past weeks, never in the future', async () => {
    const sam = userOf('sam');
    const orders = await t.call('/sl/v1/my/orders', { paginator: { page: 0, size: 10 } }, await login(sam.username));
    const times = (orders.body.data.orders as { created_at: number }[]).map((o) => o.created_at);
    expect(times.length).toBe(sam.bought);
    expect(Math.min(...times)).toBeLessThan(Date.now() - 14 * 86_400_000);
    expect(Math.max(...times)).toBeLessThanOrEqual(Date.now());
  });

  it('lets a buyer download real files whose bytes match their MD5 (PDF and ZIP parse, banners are PNG)', async () => {
    const kenji = userOf('kenji');
    const token = await login(kenji.username);
    const seen = new Set<string>();
    for (const key of ['ts-utils', 'cheat-sheets', 'capitals']) {
      const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds[key] }, token);
      expect(detail.body.data.purchased).toBe(true);
      for (const r of detail.body.data.resources as { id: string; md5: string; content_type: string }[]) {
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
    const detail = await t.call('/sl/v1/collection/detail', { collection_id: summary.collectionIds.wallpapers }, token);
    const img = await t.app.inject({ method: 'GET', url: new URL(detail.body.data.collection.banner).pathname });
    const png = PNG.sync.read(img.rawPayload);
    expect([png.width, png.height]).toEqual([256, 144]);
  });
});

describe('demo:seed discount codes and licence keys (product §28)', () => {
  it('leaves an active code on a published collection, and a buyer with a licence key that validates', async () => {
    const palettes = COLLECTIONS.find((c) => c.key === 'palettes')!;
    const preview = await t.call('/sl/v1/discount/preview', { collection_id: summary.collectionIds.palettes, code: 'pastel20' });
    expect(preview.body.data).toEqual({ code: 'PASTEL20', list_price: palettes.price, discount: 30, amount: 120 });
    const orders = await t.call('/sl/v1/my/orders', { paginator: { page: 0, size: 20 } }, await login(userOf('sam').username));
    const dotfiles = (orders.body.data.orders as { collection_id: string; licence_key?: string }[]).find(
      (o) => o.collection_id === summary.collectionIds.dotfiles,
    );
    expect(dotfiles?.licence_key).toMatch(/^[2-9A-HJ-NP-Z]{5}(-[2-9A-HJ-NP-Z]{5}){3}$/);
    const valid = await t.call('/sl/v1/licence/validate', { key: dotfiles!.licence_key });
    expect(valid.body.data).toMatchObject({ valid: true, collection_id: summary.collectionIds.dotfiles, max_activations: 3 });
  });
});

describe('demo:seed refusals', () => {
  const base = { nodeEnv: 'development', payments: 'sandbox', userCount: 0, force: false };

  it('runs only on an empty database unless forced, never in production, only with the sandbox', () => {
    expect(refusal(base)).toBeNull();
    expect(refusal({ ...base, userCount: 8 })).toMatch(/already has 8 user\(s\).*--force/);
    expect(refusal({ ...base, userCount: 8, force: true })).toBeNull();
    expect(refusal({ ...base, nodeEnv: 'production', force: true })).toMatch(/NODE_ENV=production/);
    expect(refusal({ ...base, payments: 'nowpayments' })).toMatch(/PAYMENTS=sandbox/);
  });

  it('the command exits 2 before opening any database in production or on an unknown argument', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const logs = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      expect(await main(['--force'], { NODE_ENV: 'production', DATA_DIR: '/nonexistent/coffer' })).toBe(2);
      expect(errors).toHaveBeenCalledWith('demo:seed refuses to run with NODE_ENV=production.');
      expect(await main(['--forse'], {})).toBe(2);
      expect(errors).toHaveBeenCalledWith('Unknown argument(s): --forse\n');
    } finally {
      errors.mockRestore();
      logs.mockRestore();
    }
  });
});
