/**
 * The marketplace journey in Chromium against the real server (built web app, fresh DATA_DIR,
 * sandbox payments, local storage):
 * a seller creates a collection with a real PNG banner and two real files (one of 24 MiB, so it
 * goes multipart), watches the progress bars and publishes; a buyer topped up through the sandbox
 * finds it on the home page, opens the seller's public page from the collection's 'by' link while
 * signed out, buys it, downloads both files (their MD5 equals the originals'); the
 * seller's My Collections then shows Sold 1 and the earned points. Screenshots of each screen at
 * 1280 and 390 px go to e2e/screenshots/.
 */
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { md5OfFile, writeFixtures, type FixtureFile } from '../fixtures/files';
import {
  call,
  launchBrowser,
  logIn as logInAs,
  newPage,
  registerUser,
  screenshot,
  seriousA11yViolations,
  startServer,
  viewports,
  type RunningServer,
  type TestUser,
} from '../support';

const MiB = 1024 * 1024;
const PRICE = 250;
/** Size of the big file; above 50 MB it takes the per-part hashing path (e.g. MARKET_E2E_BIG_MB=60). */
const BIG_MB = Number(process.env.MARKET_E2E_BIG_MB ?? 24);

let server: RunningServer;
let browser: Browser;
let fixtures: Awaited<ReturnType<typeof writeFixtures>>;

before(async () => {
  server = await startServer({ PAYMENTS: 'sandbox' });
  browser = await launchBrowser();
  fixtures = await writeFixtures([
    { name: 'field-notes.txt', size: 300 * 1024 },
    { name: 'raw-footage.bin', size: BIG_MB * MiB },
  ]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  if (fixtures) await rm(fixtures.dir, { recursive: true, force: true });
});

/** Polls `check` every 50 ms until it holds (at most 10 s). */
async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(check(), 'waited 10 s');
}

const logIn = (page: Page, user: TestUser) => logInAs(page, user.username, user.password);

/** Top-up through the sandbox API: a deposit bill for `points`, then the simulated payment. */
async function fund(user: TestUser, points: number) {
  const bill = (
    await call<{ bill: { id: string } }>(
      server.url,
      '/api/uc/v1/account/deposit',
      { amount: String(points), pay_currency: 'usdttrc20' },
      user.token,
    )
  ).data.bill;
  await call(server.url, '/api/dev/sandbox/pay', { bill_id: bill.id }, user.token);
}

/** Serious or critical axe findings per screen (product §21: none on any page). */
const a11y: Record<string, unknown[]> = {};

/** Both widths, same page state, and an axe check. */
async function shoot(page: Page, name: string) {
  await page.setViewportSize(viewports.desktop);
  const found = await seriousA11yViolations(page);
  if (found.length) a11y[name] = found;
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(viewports.mobile);
  await screenshot(page, `${name}-mobile`);
  await page.setViewportSize(viewports.desktop);
}

describe('marketplace', () => {
  test('sell, buy, download and see the sale', async () => {
    const seller = await registerUser(server.url, { nickname: 'Studio Mira' });
    const buyer = await registerUser(server.url);
    const title = `Field kit ${seller.username.slice(-4)}`;
    const files = fixtures.files;

    // --- the seller creates and publishes -------------------------------------------------
    const s = await newPage(browser, server.url);
    await logIn(s.page, seller);
    await s.page.goto('/mycollections');
    await s.page.getByText('No collections found').waitFor();
    await shoot(s.page, 'my-collections-empty');

    await s.page.goto('/upload');
    await s.page.getByLabel('Title').fill(title);
    await s.page.getByLabel('Description').fill('Notes and raw footage from a week in the field.');
    await s.page.getByLabel('Price (points)').fill(String(PRICE));
    await s.page.getByLabel('Banner image').setInputFiles(fixtures.banner.path);
    await s.page.getByRole('img', { name: 'Banner preview' }).waitFor();

    // Record every value the overall bar takes, to see it move.
    await s.page.evaluate(() => {
      (window as any).__overall = [] as number[];
      new MutationObserver(() => {
        const bar = document.querySelector('[aria-label="Overall upload progress"]');
        const v = bar?.getAttribute('aria-valuenow');
        if (v !== null && v !== undefined) (window as any).__overall.push(Number(v));
      }).observe(document.body, { subtree: true, attributes: true, childList: true, attributeFilter: ['aria-valuenow'] });
    });
    await s.page.getByLabel('Choose files').setInputFiles(files.map((f) => f.path));
    await s.page.getByRole('progressbar', { name: 'Overall upload progress' }).waitFor();
    await s.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="upload-row"][data-status="done"]').length === 2,
      undefined,
      { timeout: 120_000 },
    );
    const seen = (await s.page.evaluate(() => (window as any).__overall)) as number[];
    assert.ok(
      seen.some((v) => v > 0 && v < 100),
      `the overall bar moved through intermediate values: ${seen.join(',')}`,
    );
    assert.equal(await s.page.getByRole('progressbar', { name: 'Overall upload progress' }).getAttribute('aria-valuenow'), '100');
    for (const f of files) {
      assert.equal(
        await s.page.getByRole('progressbar', { name: `${f.name} upload progress` }).getAttribute('aria-valuenow'),
        '100',
      );
    }
    await s.page.getByText('2 of 2 files uploaded').waitFor();
    await shoot(s.page, 'upload-ready');

    await s.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await s.page.getByText('Collection created successfully!').waitFor();
    await s.page.waitForURL(/\/collection\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const collectionId = s.page.url().split('/').pop()!;
    await s.page.getByRole('heading', { level: 1, name: title }).waitFor();
    for (const f of files) await s.page.getByRole('link', { name: f.name }).waitFor();
    await shoot(s.page, 'collection-owner');

    // --- the buyer ------------------------------------------------------------------------
    const b = await newPage(browser, server.url);
    // The document answers the storefront's first page and a visitor's collection (ADR 0035): the
    // first screen shows them without calling for them.
    const calls: string[] = [];
    b.page.on('request', (r) => {
      if (r.method() === 'POST') calls.push(new URL(r.url()).pathname);
    });
    await b.page.goto('/');
    await b.page.getByRole('heading', { level: 1, name: 'Discover digital resources' }).waitFor();
    await b.page.getByTestId('market-card').filter({ hasText: title }).waitFor();
    await shoot(b.page, 'home-visitor');
    assert.ok(!calls.includes('/sl/v1/market/collections'), `calls on the first screen: ${calls.join(', ')}`);
    await b.page.goto(`/collection/${collectionId}`);
    await b.page.getByRole('heading', { level: 1, name: title }).waitFor();
    assert.ok(!calls.includes('/sl/v1/collection/detail'), `calls on the first screen: ${calls.join(', ')}`);
    await b.page.goto('/');

    await b.page.getByRole('link', { name: title }).click();
    await b.page.getByRole('link', { name: 'Log in to buy' }).waitFor();
    await shoot(b.page, 'collection-visitor');
    // Signed out, the collection's 'by' link opens the seller's public page, which lists it.
    const sellerId = (await call<{ id: string }>(server.url, '/api/uc/v1/account/get/me', {}, seller.token)).data.id;
    await b.page.getByRole('link', { name: 'Studio Mira', exact: true }).click();
    await b.page.waitForURL(`**/creator/${sellerId}`);
    await b.page.getByRole('heading', { level: 1, name: 'Studio Mira' }).waitFor();
    await b.page.getByText(`@${seller.username}`).waitFor();
    await b.page.getByTestId('market-card').filter({ hasText: title }).waitFor();
    await b.page.getByText('1 published collection', { exact: true }).waitFor();
    await shoot(b.page, 'creator-visitor');
    await b.page.getByRole('link', { name: title }).click();
    await b.page.waitForURL(`**/collection/${collectionId}`);
    await logIn(b.page, buyer);
    await b.page.goto('/');
    await b.page.getByRole('searchbox', { name: 'Search collections' }).fill(title);
    await b.page.getByRole('button', { name: 'Search', exact: true }).click();
    await b.page.getByRole('link', { name: title }).click();
    await b.page.waitForURL(`**/collection/${collectionId}`);

    // No points yet: the confirmation offers the wallet's Top-up instead of Confirm.
    await b.page.getByRole('button', { name: /^Balance: 0\.00 points$/ }).waitFor();
    await b.page.getByRole('button', { name: `Buy for ${PRICE} Points` }).click();
    const short = b.page.getByRole('dialog', { name: 'Confirm purchase' });
    await short.getByText('Insufficient balance').waitFor();
    await short.getByText('-250.00 Points').waitFor();
    await shoot(b.page, 'buy-insufficient');
    await short.getByRole('button', { name: 'Top up' }).click();
    const topUp = b.page.getByRole('dialog', { name: 'Top-up' });
    await topUp.waitFor();
    await b.page.keyboard.press('Escape');
    await topUp.waitFor({ state: 'hidden' });

    await fund(buyer, 1000);
    await b.page.reload();
    await b.page.getByRole('button', { name: /^Balance: 1,000\.00 points$/ }).waitFor();
    await b.page.getByRole('button', { name: `Buy for ${PRICE} Points` }).click();
    const dialog = b.page.getByRole('dialog', { name: 'Confirm purchase' });
    await dialog.getByText('1,000.00 Points').waitFor();
    await dialog.getByText('750.00 Points').waitFor();
    await shoot(b.page, 'buy-confirm');
    // A double click pays once: one order/pay, carrying an Idempotency-Key, and one success toast.
    const keys: (string | undefined)[] = [];
    b.page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/uc/v1/account/order/pay') keys.push(r.headers()['idempotency-key']);
    });
    const buysBefore = calls.filter((p) => p === '/sl/v1/collection/buy').length;
    await dialog.getByRole('button', { name: 'Confirm purchase' }).dblclick();
    await b.page.getByText('Purchase successful! Your files are ready to download.').waitFor();
    assert.equal(keys.length, 1, `order/pay sent ${keys.length} times`);
    assert.match(keys[0] ?? '', /^"[0-9a-f-]{36}"$/);
    assert.equal(await b.page.getByText('Purchase successful! Your files are ready to download.').count(), 1);
    assert.equal(calls.filter((p) => p === '/sl/v1/collection/buy').length, buysBefore);
    await b.page.getByText('You own this collection').waitFor();
    await b.page.getByRole('button', { name: /^Balance: 750\.00 points$/ }).waitFor();

    for (const f of files as FixtureFile[]) {
      const [download] = await Promise.all([
        b.page.waitForEvent('download'),
        b.page.getByRole('button', { name: `Download ${f.name}` }).click(),
      ]);
      assert.equal(download.suggestedFilename(), f.name);
      const saved = path.join(fixtures.dir, `downloaded-${f.name}`);
      await download.saveAs(saved);
      assert.equal(await md5OfFile(saved), f.md5, `${f.name}: downloaded bytes equal the original`);
    }
    await shoot(b.page, 'collection-buyer');

    await b.page.getByRole('link', { name: files[0]!.name }).click();
    await b.page.getByRole('heading', { level: 1, name: files[0]!.name }).waitFor();
    await b.page.getByText(files[0]!.md5).waitFor();
    await b.page.getByRole('button', { name: `Download ${files[0]!.name}` }).waitFor();
    await shoot(b.page, 'resource-buyer');

    await b.page.goto('/profile/buy');
    await b.page.getByTestId('purchased-collection').filter({ hasText: title }).waitFor();
    await b.page.getByTestId('order-row').filter({ hasText: title }).getByText(`${PRICE} Points`).waitFor();
    await b.page.getByRole('button', { name: 'Files' }).click();
    await b.page.getByRole('button', { name: `Download ${files[0]!.name}` }).waitFor();
    await shoot(b.page, 'profile-purchases');
    assert.deepEqual(b.errors, []);

    // --- the seller sees the sale ----------------------------------------------------------
    await s.page.goto('/mycollections');
    const card = s.page.getByTestId('collection-card').filter({ hasText: title });
    await card.waitFor();
    await s.page.getByText('1 collection(s) total').waitFor();
    const sold = await card.locator('dt', { hasText: 'Sold' }).locator('xpath=following-sibling::dd').textContent();
    assert.equal(sold, '1');
    const earned = await card.locator('dt', { hasText: 'Earned Points' }).locator('xpath=following-sibling::dd').textContent();
    assert.equal(earned, `${PRICE} Points`);
    await card.getByText('Published').waitFor();
    await shoot(s.page, 'my-collections');

    await s.page.goto('/profile/selling');
    await s.page.getByTestId('market-card').filter({ hasText: title }).waitFor();
    await shoot(s.page, 'profile-selling');

    await s.page.emulateMedia({ colorScheme: 'dark' });
    await s.page.goto('/mycollections');
    await s.page.getByTestId('collection-card').filter({ hasText: title }).waitFor();
    await shoot(s.page, 'my-collections-dark');
    await s.page.goto(`/collection/${collectionId}`);
    await s.page.getByRole('heading', { level: 1, name: title }).waitFor();
    await shoot(s.page, 'collection-owner-dark');
    await s.page.emulateMedia({ colorScheme: 'light' });

    // --- a discount code (product §28): the seller makes one, a buyer pays less through a shared link ---
    await s.page.goto('/mycollections/discounts');
    await s.page.getByRole('button', { name: 'New code' }).first().click();
    const form = s.page.getByRole('dialog', { name: 'New code' });
    await form.getByLabel('Code').fill('FIELD20');
    await form.getByLabel('Percent off (1-100)').fill('20');
    await form.getByRole('button', { name: 'Create code' }).click();
    await form.waitFor({ state: 'hidden' });
    await s.page.getByText('FIELD20').first().waitFor();
    await shoot(s.page, 'discount-codes');

    const buyer2 = await registerUser(server.url);
    await fund(buyer2, 1000);
    const c = await newPage(browser, server.url);
    await logIn(c.page, buyer2);
    await c.page.goto(`/collection/${collectionId}?code=FIELD20`);
    await c.page.getByRole('button', { name: /^Balance: 1,000\.00 points$/ }).waitFor();
    await c.page.getByRole('button', { name: /^Buy for / }).click();
    const withCode = c.page.getByRole('dialog', { name: 'Confirm purchase' });
    await withCode.getByText('Discount (FIELD20)').waitFor();
    await withCode.getByText('200 Points', { exact: true }).waitFor();
    await shoot(c.page, 'buy-with-code');
    await withCode.getByRole('button', { name: 'Confirm purchase' }).click();
    await c.page.getByText('Purchase successful! Your files are ready to download.').waitFor();
    await c.page.getByRole('button', { name: /^Balance: 800\.00 points$/ }).waitFor();
    assert.deepEqual(c.errors, []);

    assert.deepEqual(s.errors, []);
    assert.deepEqual(a11y, {}, 'no serious or critical accessibility violation on any marketplace screen');
    await s.context.close();
    await b.context.close();
    await c.context.close();
  });

  test('leaving /upload by a link with a file not yet in a collection asks; after leaving, one Back returns to /upload', async () => {
    const seller = await registerUser(server.url, { nickname: 'Leaver' });
    const file = path.join(fixtures.dir, 'draft-notes.txt');
    await writeFile(file, 'notes\n'.repeat(100));
    const s = await newPage(browser, server.url);
    await logIn(s.page, seller);
    await s.page.goto('/mycollections');
    await s.page.goto('/upload');
    await s.page.getByLabel('Choose files').setInputFiles([file]);
    await s.page.waitForFunction(
      () => document.querySelectorAll('[data-testid="upload-row"][data-status="done"]').length === 1,
      null,
      {
        timeout: 60_000,
      },
    );
    const asked: string[] = [];
    s.page.on('dialog', (d) => {
      asked.push(d.message());
      void d.accept();
    });
    await s.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Purchases' }).click();
    await s.page.waitForURL(/\/profile\/buy$/);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /lose/i);
    // The guard entry left with the page: Back returns to /upload once, then to the page before it.
    await s.page.goBack();
    await s.page.waitForURL(/\/upload$/);
    await s.page.goBack();
    await s.page.waitForURL(/\/mycollections$/);
    assert.deepEqual(s.errors, []);
    await s.context.close();
  });

  test('six good files and an empty one: the empty one is refused at once, Publish without it gives six files and one outcome', async () => {
    const seller = await registerUser(server.url, { nickname: 'Studio Six' });
    const title = `Six files ${seller.username.slice(-4)}`;
    const paths: string[] = [];
    for (let i = 1; i <= 6; i++) {
      const p = path.join(fixtures.dir, `chapter-${i}.txt`);
      await writeFile(p, `Chapter ${i}\n`.repeat(200 * i));
      paths.push(p);
    }
    const empty = path.join(fixtures.dir, 'empty.txt');
    await writeFile(empty, '');

    const s = await newPage(browser, server.url);
    await logIn(s.page, seller);
    await s.page.goto('/upload');
    await s.page.getByLabel('Title').fill(title);
    await s.page.getByLabel('Price (points)').fill('30');
    await s.page.getByLabel('Choose files').setInputFiles([...paths, empty]);
    const emptyRow = s.page.getByTestId('upload-row').filter({ hasText: 'empty.txt' });
    // Refused before it starts: the spec's message, no bar, no Retry.
    await emptyRow.getByText('Cannot calculate MD5 for empty file').waitFor();
    assert.equal(await emptyRow.getByRole('progressbar').count(), 0);
    assert.equal(await emptyRow.getByRole('button', { name: /Retry/ }).count(), 0);
    await s.page.getByText('6 of 7 files uploaded').waitFor({ timeout: 60_000 });

    // Count every toast that appears from here on.
    await s.page.evaluate(() => {
      const seen: string[] = ((window as any).__toasts = []);
      new MutationObserver(() => {
        for (const el of Array.from(document.querySelectorAll('[data-rht-toaster] [role="status"]'))) {
          const text = el.textContent ?? '';
          if (text && !el.hasAttribute('data-counted')) {
            el.setAttribute('data-counted', '');
            seen.push(text);
          }
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // Back with files not yet in a collection asks first; staying keeps the page and its files.
    const asked: string[] = [];
    const onDialog = (d: import('playwright-core').Dialog) => {
      asked.push(d.message());
      void d.dismiss();
    };
    s.page.on('dialog', onDialog);
    await s.page.evaluate(() => window.history.back());
    await s.page.waitForFunction(() => (window.history.state as Record<string, unknown> | null)?.cofferLeaveGuard === true);
    await waitUntil(() => asked.length === 1);
    s.page.off('dialog', onDialog);
    assert.match(asked[0]!, /lose/i);
    assert.equal(new URL(s.page.url()).pathname, '/upload');
    assert.equal(await s.page.getByTestId('upload-row').count(), 7);

    await s.page.getByRole('button', { name: 'Publish', exact: true }).click();
    await s.page.getByText('1 file did not upload. Remove it, or go on without it.').waitFor();
    await shoot(s.page, 'upload-skip-offer');
    await s.page.getByRole('button', { name: 'Publish without it' }).click();
    await s.page.waitForURL(/\/collection\/[0-9a-f-]{36}$/, { timeout: 30_000 });
    const collectionId = s.page.url().split('/').pop()!;
    await s.page.getByRole('heading', { level: 1, name: title }).waitFor();
    for (let i = 1; i <= 6; i++) await s.page.getByRole('link', { name: `chapter-${i}.txt` }).waitFor();
    await s.page.getByText('Collection created successfully!').waitFor();
    await s.page.waitForTimeout(500);
    const toasts = (await s.page.evaluate(() => (window as any).__toasts)) as string[];
    assert.deepEqual(toasts, ['Collection created successfully!'], 'one outcome');
    // The collection page replaced the guard entry: one Back returns to the upload page.
    await s.page.goBack();
    await s.page.waitForURL(/\/upload$/);
    await s.page.getByLabel('Title').waitFor();

    const detail = await call<{ collection: { status: string }; resources: { name: string }[] }>(
      server.url,
      '/api/sl/v1/collection/detail',
      { collection_id: collectionId },
      seller.token,
    );
    assert.equal(detail.data.collection.status, 'Published');
    assert.deepEqual(detail.data.resources.map((r) => r.name).sort(), paths.map((p) => path.basename(p)).sort());
    assert.deepEqual(s.errors, []);
    await s.context.close();
  });
});
