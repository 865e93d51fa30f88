/**
 * The longest text a user may type never breaks a page (docs/product.md §21.6): seeded through the
 * API with the longest allowed value of every user field — a 32-character username, a 254-character
 * email, 64-character nicknames without a space, a 100-character title without a space, a
 * 2,000-character description with a long URL and a long unbroken token, files with 255-character
 * unicode names (one a long hyphenated token), 2,000-character review and reply without a space, a
 * 32-character discount code, a 500-character refund reason, a 2,000-character webhook URL and a
 * cash-out with the longest memo — every page that shows them is opened at 390 and 1280 px and
 * must be no wider than the window (`document.documentElement.scrollWidth <= innerWidth`); on the
 * collection page at 390 px the Buy button lies inside the window, and the buy and withdrawal
 * dialogs fit it too. Screenshots of each go to e2e/screenshots/long-*.png.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  COLLECTION_DESC_MAX,
  COLLECTION_TITLE_MAX,
  DISCOUNT_CODE_MAX,
  REFUND_REASON_MAX,
  REVIEW_TEXT_MAX,
} from '@coffer/contract';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import {
  DEFAULT_PASSWORD,
  call,
  fundUser,
  launchBrowser,
  logIn,
  md5,
  newPage,
  registerUser,
  screenshotDir,
  settle,
  startServer,
  viewports,
  type RunningServer,
  type TestUser,
} from '../support';

/** `pattern` repeated and cut to exactly `length` UTF-16 units (what the schemas' max() counts). */
const fill = (pattern: string, length: number) => pattern.repeat(Math.ceil(length / pattern.length)).slice(0, length);

const NICKNAME_MAX = 64;
const USERNAME_MAX = 32;
const EMAIL_MAX = 254;
const FILE_NAME_MAX = 255;
const WEBHOOK_URL_MAX = 2000;
/** The sandbox's TON memo pattern allows 64 characters (apps/server/src/providers/payments/sandbox.ts). */
const TON_MEMO_MAX = 64;

/** A username of 32 characters, unique per run. */
function longUsername(stem: string): string {
  const tail = createHash('md5').update(`${stem}${Math.random()}`).digest('hex').slice(0, 8);
  return `${fill(stem, USERNAME_MAX - 9)}_${tail}`;
}

/** An email of 254 characters (64-character local part, 63-character labels). */
function longEmail(username: string): string {
  const local = fill(username.toLowerCase(), 64);
  const domain = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(57)}.com`;
  const email = `${local}@${domain}`;
  assert.equal(email.length, EMAIL_MAX);
  return email;
}

const LONG = {
  sellerNickname: fill('ŻółwŚwiętokrzyskiÆrøskøbingStudio', NICKNAME_MAX),
  buyerNickname: fill('BuyerWithAnExtraordinarilyLongNameÜberall', NICKNAME_MAX),
  title: fill('Ultrahochauflösende·Pinselsammlung', COLLECTION_TITLE_MAX),
  /** A second collection, with licence keys on, that the buyer keeps (its order offers Request refund). */
  keyedTitle: fill('Lizenzierte·Texturensammlung', COLLECTION_TITLE_MAX),
  description: (() => {
    const url = `https://example.com/${fill('downloads/very-long-path-segment-', 380)}?ref=${fill('x', 120)}`;
    const token = fill('Unbrokenlongtokenwithoutanyspaceorhyphen', 700);
    const prose = 'Brushes, textures and notes from a year of painting outdoors. ';
    const start = `${prose}\nMirror: ${url}\n${token}\n`;
    return `${start}${fill(prose, COLLECTION_DESC_MAX - start.length)}`;
  })(),
  fileNames: [
    `${fill('Ünïcødé-résumé-naïve-façade-Ωμέγα-日本語-', FILE_NAME_MAX - 4)}.pdf`,
    `${fill('Z', FILE_NAME_MAX - 4)}.txt`,
  ],
  review: fill('Wonderful', REVIEW_TEXT_MAX),
  reply: fill('Thankyouforthekindwords', REVIEW_TEXT_MAX),
  code: fill('LONGDISCOUNTCODE', DISCOUNT_CODE_MAX),
  refundReason: fill('Thefilesdidnotopenonmymachine', REFUND_REASON_MAX),
  webhookUrl: `https://example.com/${fill('hooks/coffer-seller-events-', WEBHOOK_URL_MAX - 'https://example.com/'.length)}`,
  tonAddress: `UQ${fill('Ab3_-', 46)}`,
  memo: fill('M', TON_MEMO_MAX),
};

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ PAYMENTS: 'sandbox' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A user with the longest username, email and the given 64-character nickname. */
async function longUser(stem: string, nickname: string): Promise<TestUser> {
  const username = longUsername(stem);
  return registerUser(server.url, { username, email: longEmail(username), nickname });
}

/** Uploads one small file named `name` through the API and adds it to the collection. */
async function addFile(token: string, collectionId: string, name: string): Promise<string> {
  const data = Buffer.from(`contents of ${name}`);
  const start = (
    await call<{ upload_id: string; url: string }>(
      server.url,
      '/sl/v1/upload/resource/url',
      { file_name: name, size: data.length, md5: md5(data.toString()), content_type: 'application/octet-stream' },
      token,
    )
  ).data;
  const put = await fetch(start.url, { method: 'PUT', body: data, headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(put.status, 200);
  const r = (await call<{ id: string }>(server.url, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [] }, token))
    .data;
  await call(server.url, '/sl/v1/collection/resource/add', { collection_id: collectionId, resource_id: r.id }, token);
  return r.id;
}

/** What sticks out past the window's right edge (deepest first), for the failure message. */
async function overflowing(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 0.5) continue;
      // Only the innermost offenders: skip elements whose children explain the overflow.
      if (Array.from(el.children).some((c) => c.getBoundingClientRect().right > width + 0.5)) continue;
      const cls = typeof el.className === 'string' ? el.className.slice(0, 80) : '';
      out.push(
        `<${el.tagName.toLowerCase()} class="${cls}"> right=${Math.round(r.right)} "${(el.textContent ?? '').slice(0, 40)}"`,
      );
      if (out.length >= 6) break;
    }
    return out;
  });
}

/**
 * A screenshot `e2e/screenshots/<name>.png` of the page's full height (at most 8,000 px) cut at the
 * window's width, so that a page blown wide by a long word still photographs quickly; with
 * `windowOnly`, of what the window shows (an open dialog).
 */
async function shot(page: Page, name: string, windowOnly = false): Promise<void> {
  if (process.env.E2E_SCREENSHOTS === 'false') return;
  const file = path.join(screenshotDir, `${name}.png`);
  await mkdir(screenshotDir, { recursive: true });
  if (windowOnly) {
    await page.screenshot({ path: file });
    return;
  }
  const { width, height } = await page.evaluate(() => ({
    width: window.innerWidth,
    height: document.documentElement.scrollHeight,
  }));
  await page.screenshot({ path: file, fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(height, 8000) } });
}

/** Problems found so far (page and width → what is wrong); asserted empty at the end. */
const problems: string[] = [];

/** Records a problem when the document is wider than the window. */
async function checkFits(page: Page, label: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  if (scrollWidth > innerWidth) {
    problems.push(
      `${label}: the page is ${scrollWidth} px wide in a ${innerWidth} px window; ${(await overflowing(page)).join('; ')}`,
    );
  }
}

/** Records a problem when `box` does not lie within the window's width, or scrolls sideways itself. */
async function checkInside(page: Page, box: Locator, label: string): Promise<void> {
  await box.waitFor();
  const r = await box.evaluate((el) => {
    const rect = el.getBoundingClientRect();
    return { left: rect.left, right: rect.right, scrollWidth: el.scrollWidth, clientWidth: el.clientWidth };
  });
  const width = page.viewportSize()!.width;
  if (r.left < -0.5 || r.right > width + 0.5)
    problems.push(`${label}: spans ${Math.round(r.left)}..${Math.round(r.right)} px in a ${width} px window`);
  if (r.scrollWidth > r.clientWidth + 1) problems.push(`${label}: scrolls sideways (${r.scrollWidth} > ${r.clientWidth} px)`);
}

/**
 * At 390 px: every table is a stack of cards whose frame does not scroll sideways, and every button,
 * link and licence key in it lies inside the window (My orders' Request refund, Your sales' Refund).
 */
async function checkTablesStacked(page: Page, label: string): Promise<void> {
  const found = await page.evaluate(() => {
    const out: string[] = [];
    for (const table of Array.from(document.querySelectorAll<HTMLTableElement>('table.stack-table'))) {
      const frame = table.parentElement!;
      if (frame.scrollWidth > frame.clientWidth + 1) out.push(`a table frame scrolls sideways (${frame.scrollWidth} > ${frame.clientWidth} px)`);
      for (const el of Array.from(table.querySelectorAll<HTMLElement>('button, a, code'))) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && (r.left < -0.5 || r.right > window.innerWidth + 0.5))
          out.push(`"${(el.textContent || el.getAttribute('aria-label') || '').slice(0, 40)}" spans ${Math.round(r.left)}..${Math.round(r.right)} px`);
      }
    }
    return out;
  });
  for (const f of found) problems.push(`${label}: ${f}`);
}

/**
 * Opens `path` (waiting for `ready`), then at 1280 and 390 px checks the width and saves a screenshot
 * `long-<name>-<width>`; `extra` runs more checks at each width.
 */
async function visit(
  page: Page,
  path: string,
  name: string,
  ready: (page: Page) => Locator,
  extra?: (page: Page, width: number) => Promise<void>,
) {
  for (const viewport of [viewports.desktop, viewports.mobile]) {
    await page.setViewportSize(viewport);
    await page.goto(path);
    await ready(page).first().waitFor();
    await settle(page);
    await checkFits(page, `${name} at ${viewport.width}`);
    if (viewport.width === viewports.mobile.width) await checkTablesStacked(page, `${name} at ${viewport.width}`);
    await extra?.(page, viewport.width);
    await shot(page, `long-${name}-${viewport.width}`);
  }
}

describe('long content', () => {
  test('the longest allowed value of every user field fits every page at 390 and 1280 px', { timeout: 600_000 }, async () => {
    // --- seed -----------------------------------------------------------------------------------
    const seller = await longUser('seller', LONG.sellerNickname);
    const buyer = await longUser('buyer', LONG.buyerNickname);
    const shopper = await longUser('shopper', fill('ShopperWhoKeepsTypingWithoutEverPressingSpace', NICKNAME_MAX));

    const collection = (
      await call<{ id: string }>(
        server.url,
        '/sl/v1/collection/create',
        { title: LONG.title, desc: LONG.description, amount: 120 },
        seller.token,
      )
    ).data;
    const fileIds: string[] = [];
    for (const name of LONG.fileNames) fileIds.push(await addFile(seller.token, collection.id, name));
    await call(server.url, '/sl/v1/collection/publish', { collection_id: collection.id }, seller.token);
    await call(
      server.url,
      '/sl/v1/discount/create',
      { code: LONG.code, kind: 'percent', value: 10, collection_id: collection.id },
      seller.token,
    );
    await call(server.url, '/api/uc/v1/account/webhook/set', { url: LONG.webhookUrl }, seller.token);

    await fundUser(server.url, buyer.token, '500.00');
    await fundUser(server.url, shopper.token, '500.00');
    const order = (await call<{ id: string }>(server.url, '/sl/v1/collection/buy', { collection_id: collection.id }, buyer.token))
      .data;
    await call(server.url, '/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);
    const review = (
      await call<{ review: { id: string } }>(
        server.url,
        '/sl/v1/review/upsert',
        { collection_id: collection.id, rating: 4, text: LONG.review },
        buyer.token,
      )
    ).data.review;
    await call(server.url, '/sl/v1/review/reply', { review_id: review.id, text: LONG.reply }, seller.token);
    // A download first, so the refund request is stored for the seller rather than granted at once.
    await call(
      server.url,
      '/sl/v1/resource/download/url',
      { collection_id: collection.id, resource_id: fileIds[0] },
      buyer.token,
    );
    await call(
      server.url,
      '/api/uc/v1/account/order/refund/request',
      { order_id: order.id, reason: LONG.refundReason },
      buyer.token,
    );

    // A second order, paid and kept: its row carries a licence key and Request refund.
    const keyed = (
      await call<{ id: string }>(server.url, '/sl/v1/collection/create', { title: LONG.keyedTitle, desc: 'Keys', amount: 10 }, seller.token)
    ).data;
    await addFile(seller.token, keyed.id, LONG.fileNames[1]!);
    await call(server.url, '/sl/v1/collection/publish', { collection_id: keyed.id }, seller.token);
    await call(server.url, '/sl/v1/licence/settings', { collection_id: keyed.id, enabled: true }, seller.token);
    const keyedOrder = (await call<{ id: string }>(server.url, '/sl/v1/collection/buy', { collection_id: keyed.id }, buyer.token)).data;
    await call(server.url, '/api/uc/v1/account/order/pay', { order_id: keyedOrder.id }, buyer.token);

    await fundUser(server.url, seller.token, '2500.00');
    const me = (await call<{ id: string }>(server.url, '/api/uc/v1/account/get/me', {}, seller.token)).data;
    const bill = (
      await call<{ bill: { id: string } }>(
        server.url,
        '/api/uc/v1/account/withdraw/create',
        { user_id: me.id, currency: 'usdtton', network: 'TON', amount: '1500', address: LONG.tonAddress, memo: LONG.memo },
        seller.token,
      )
    ).data.bill;
    await call(
      server.url,
      '/api/uc/v1/account/withdraw/confirm',
      { bill_id: bill.id, password: md5(DEFAULT_PASSWORD) },
      seller.token,
    );

    const contexts: BrowserContext[] = [];
    const errors: string[] = [];
    async function signedIn(user: TestUser | null) {
      const p = await newPage(browser, server.url);
      contexts.push(p.context);
      if (user) await logIn(p.page, user.username, user.password);
      return p;
    }
    const byTitle = (page: Page) => page.getByRole('heading', { level: 1, name: LONG.title });
    const collectionPath = `/collection/${collection.id}`;

    // --- a visitor ------------------------------------------------------------------------------
    const visitor = await signedIn(null);
    await visit(visitor.page, '/', 'storefront', (p) => p.getByText(LONG.sellerNickname, { exact: false }));
    await visit(visitor.page, collectionPath, 'collection-visitor', byTitle, async (page, width) => {
      await page.getByText(LONG.review).waitFor();
      if (width === viewports.mobile.width)
        await checkInside(page, page.getByRole('link', { name: 'Log in to buy' }), 'Log in to buy at 390');
    });
    await visit(visitor.page, `/creator/${me.id}`, 'creator', (p) =>
      p.getByRole('heading', { level: 1, name: LONG.sellerNickname }),
    );
    await visit(visitor.page, `/resource/${fileIds[0]}`, 'resource', (p) =>
      p.getByRole('heading', { level: 1, name: LONG.fileNames[0] }),
    );

    // --- a shopper with the seller's long code: the price card and the buy dialog ----------------
    const shop = await signedIn(shopper);
    await visit(shop.page, `${collectionPath}?code=${LONG.code}`, 'collection-shopper', byTitle, async (page, width) => {
      const buy = page.getByRole('button', { name: /^Buy for/ });
      await buy.scrollIntoViewIfNeeded();
      await checkInside(page, buy, `Buy button at ${width}`);
      if (width === viewports.mobile.width) {
        const inView = await buy.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
        });
        if (!inView) problems.push('Buy button at 390: not inside the window once scrolled to');
      }
      await buy.click();
      const dialog = page.getByRole('dialog', { name: 'Confirm purchase' });
      await dialog.getByText(LONG.code, { exact: true }).waitFor();
      await checkInside(page, dialog, `buy dialog at ${width}`);
      await checkFits(page, `buy dialog page at ${width}`);
      await shot(page, `long-buy-dialog-${width}`, true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
    });

    // --- the buyer ------------------------------------------------------------------------------
    const b = await signedIn(buyer);
    await visit(b.page, collectionPath, 'collection-buyer', byTitle, (page) =>
      page.getByRole('form', { name: 'Edit your review' }).waitFor(),
    );
    await visit(b.page, '/profile/buy', 'purchases', (p) => p.getByText(LONG.title).first(), async (page, width) => {
      // Every profile tab is visible whole (the strip wraps on a phone).
      for (const tab of ['Account', 'Selling', 'My Purchases', 'Events & webhooks', 'Security'])
        await checkInside(page, page.getByRole('navigation', { name: 'Profile sections' }).getByRole('link', { name: tab }), `tab ${tab} at ${width}`);
      // My orders: the kept order's licence key, its copy button and Request refund are shown whole, on screen.
      const kept = page.getByTestId('order-row').filter({ hasText: LONG.keyedTitle });
      for (const [what, box] of [
        ['licence key', kept.locator('code')],
        ['Copy licence key', kept.getByRole('button', { name: 'Copy licence key' })],
        ['Request refund', kept.getByRole('button', { name: 'Request refund' })],
      ] as const) {
        await box.scrollIntoViewIfNeeded();
        await checkInside(page, box, `My orders ${what} at ${width}`);
      }
    });
    await visit(b.page, '/profile', 'profile-buyer', (p) => p.getByRole('heading', { level: 1, name: LONG.buyerNickname }));
    await visit(b.page, `/profile/${me.id}/selling`, 'seller-profile', (p) =>
      p.getByRole('heading', { level: 1, name: LONG.sellerNickname }),
    );

    // --- the seller -----------------------------------------------------------------------------
    const s = await signedIn(seller);
    await visit(s.page, collectionPath, 'collection-owner', byTitle, async (page, width) => {
      await page.getByText(LONG.reply).waitFor();
      // The owner's panel that replaces a file names it.
      await page.getByRole('button', { name: `Replace ${LONG.fileNames[0]}` }).click();
      await page.getByRole('group', { name: `Replace ${LONG.fileNames[0]}` }).waitFor();
      await checkFits(page, `replace-file panel at ${width}`);
    });
    await visit(
      s.page,
      '/profile/selling',
      'sales',
      (p) => p.getByText(LONG.refundReason, { exact: false }).first(),
      async (page, width) => {
        // The refund reason wraps in its column rather than stretching the row; at 390 px the row is a
        // card holding every column, the longest reason (500 characters) included, on about 13 lines.
        const height = await page
          .getByTestId('sale-row')
          .first()
          .evaluate((el) => el.getBoundingClientRect().height);
        const limit = width === viewports.mobile.width ? 800 : 400;
        if (height > limit) problems.push(`sales row at ${width}: ${Math.round(height)} px tall`);
        // Your sales: the kept sale's licence key and the asked-for refund's Refund button are shown whole, on screen.
        const rows = page.getByTestId('sale-row');
        for (const [what, box] of [
          ['licence key', rows.filter({ hasText: LONG.keyedTitle }).locator('code')],
          ['Refund', rows.filter({ hasText: LONG.title }).getByRole('button', { name: `Refund ${LONG.buyerNickname}'s order` })],
        ] as const) {
          await box.scrollIntoViewIfNeeded();
          await checkInside(page, box, `Your sales ${what} at ${width}`);
        }
      },
    );
    await visit(s.page, '/mycollections', 'mycollections', (p) => p.getByText(LONG.title).first());
    await visit(s.page, '/mycollections/discounts', 'discounts', (p) => p.getByText(LONG.code).first());
    await visit(s.page, '/mycollections/dashboard', 'dashboard', (p) => p.getByRole('heading', { level: 1 }));
    await visit(s.page, `${collectionPath}/edit`, 'collection-edit', (p) => p.getByLabel('Title'));
    await visit(
      s.page,
      '/profile',
      'profile',
      (p) => p.getByRole('heading', { level: 1, name: LONG.sellerNickname }),
      async (page, width) => {
        // The nickname form's Edit button stays inside the window and its card.
        await checkInside(page, page.getByRole('button', { name: /edit/i }).first(), `profile Edit button at ${width}`);
        // The signed-in user's name and email in the user menu (1280) or the phone menu (390).
        if (width === viewports.mobile.width) {
          await page.getByRole('button', { name: 'Open menu' }).click();
          await checkInside(page, page.locator('#mobile-menu'), 'phone menu at 390');
          await checkFits(page, 'phone menu page at 390');
          await shot(page, 'long-phone-menu-390', true);
          await page.getByRole('button', { name: 'Close menu' }).click();
        } else {
          await page.getByRole('button', { name: 'User menu' }).click();
          await checkInside(page, page.getByRole('menu'), `user menu at ${width}`);
          await shot(page, `long-user-menu-${width}`, true);
          await page.keyboard.press('Escape');
        }
      },
    );
    await visit(
      s.page,
      '/profile/events',
      'events',
      (p) => p.locator('input[type="url"]'),
      async (page) => {
        assert.equal(await page.locator('input[type="url"]').inputValue(), LONG.webhookUrl);
      },
    );
    await visit(
      s.page,
      '/transactions',
      'transactions',
      (p) => p.getByRole('button', { name: /^Cash out -/ }),
      async (page, width) => {
        await page
          .getByRole('button', { name: /^Cash out -/ })
          .first()
          .click();
        const detail = page.getByRole('dialog', { name: 'Withdrawal details' });
        await detail.getByText(LONG.memo).waitFor();
        // A memo is checked by eye before money leaves: shown whole, never cut with an ellipsis.
        const memoCut = await detail.getByText(LONG.memo).evaluate((el) => el.scrollWidth > el.clientWidth);
        if (memoCut) problems.push(`withdrawal memo at ${width}: cut off`);
        await checkInside(page, detail, `withdrawal dialog at ${width}`);
        await checkFits(page, `withdrawal dialog page at ${width}`);
        await shot(page, `long-withdrawal-${width}`, true);
        await page.keyboard.press('Escape');
        await detail.waitFor({ state: 'detached' });
      },
    );

    for (const p of [visitor, shop, b, s]) errors.push(...p.errors);
    for (const c of contexts) await c.close();
    assert.deepEqual(problems, [], `Pages wider than the window:\n${problems.join('\n')}`);
    assert.deepEqual(errors, []);
  });
});
