/**
 * Reviews and the sales dashboard (product §29) in Chromium against the real server: a seller's
 * published collection (made through the API), a buyer who bought it rates it 4 stars with a text
 * on the collection page; the average and the count show at once (the public read cache was
 * emptied); the seller replies once and opens My Collections → Sales dashboard, whose chart (uPlot,
 * its own lazy chunk) and table show the sale. No serious or critical axe violation on either screen.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  call,
  fundUser,
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

const logIn = (page: Page, user: TestUser) => logInAs(page, user.username, user.password);

/** A published collection of `seller` with one small file, made through the API. */
async function publishedCollection(seller: TestUser, title: string, amount: number): Promise<string> {
  const c = (
    await call<{ id: string }>(
      server.url,
      '/sl/v1/collection/create',
      { title, desc: 'Reviewed in the e2e run.', amount },
      seller.token,
    )
  ).data;
  const data = Buffer.from(`contents of ${title}`);
  const start = (
    await call<{ upload_id: string; url: string }>(
      server.url,
      '/sl/v1/upload/resource/url',
      {
        file_name: 'notes.txt',
        size: data.length,
        md5: createHash('md5').update(data).digest('hex'),
        content_type: 'text/plain',
      },
      seller.token,
    )
  ).data;
  const put = await fetch(start.url, { method: 'PUT', body: data, headers: { 'content-type': 'application/octet-stream' } });
  assert.equal(put.status, 200);
  const r = (
    await call<{ id: string }>(server.url, '/sl/v1/complete/upload', { upload_id: start.upload_id, parts: [] }, seller.token)
  ).data;
  await call(server.url, '/sl/v1/collection/resource/add', { collection_id: c.id, resource_id: r.id }, seller.token);
  await call(server.url, '/sl/v1/collection/publish', { collection_id: c.id }, seller.token);
  return c.id;
}

async function noSeriousViolations(page: Page, name: string) {
  const found = await seriousA11yViolations(page);
  assert.deepEqual(found, [], `${name}: ${JSON.stringify(found, null, 2)}`);
}

describe('reviews and the sales dashboard', () => {
  test('a buyer reviews, the seller replies and sees the sale on the dashboard', async () => {
    const seller = await registerUser(server.url, { nickname: 'Studio Mira' });
    const buyer = await registerUser(server.url, { nickname: 'Sam' });
    const title = `Brushes ${seller.username.slice(-4)}`;
    const id = await publishedCollection(seller, title, 120);
    await fundUser(server.url, buyer.token, '500.00');
    const order = (await call<{ id: string }>(server.url, '/sl/v1/collection/buy', { collection_id: id }, buyer.token)).data;
    await call(server.url, '/api/uc/v1/account/order/pay', { order_id: order.id }, buyer.token);

    // --- the buyer writes a review ---------------------------------------------------------
    const b = await newPage(browser, server.url);
    await logIn(b.page, buyer);
    await b.page.goto(`/collection/${id}`);
    await b.page.getByRole('heading', { level: 1, name: title }).waitFor();
    const form = b.page.getByRole('form', { name: 'Write a review' });
    await form.waitFor();
    await form.getByRole('radio', { name: '4 stars' }).check({ force: true });
    await form.getByLabel('Your review (optional)').fill('Soft, natural strokes. Worth it.');
    await form.getByRole('button', { name: 'Post review' }).click();
    await b.page.getByText('Thanks for your review!').waitFor();
    await b.page.getByLabel('Rated 4.0 out of 5, 1 review').first().waitFor();
    await b.page.getByRole('form', { name: 'Edit your review' }).waitFor();
    await noSeriousViolations(b.page, 'collection-buyer-review');
    await screenshot(b.page, 'reviews-buyer-desktop');
    assert.deepEqual(b.errors, []);

    // --- the seller replies and opens the dashboard -----------------------------------------
    const s = await newPage(browser, server.url);
    await logIn(s.page, seller);
    await s.page.goto(`/collection/${id}`);
    await s.page.getByRole('button', { name: 'Reply' }).click();
    await s.page.getByLabel(/Your reply/).fill('Thank you, Sam!');
    await s.page.getByRole('button', { name: 'Post reply' }).click();
    await s.page.getByText('Reply from the seller').waitFor();
    assert.equal(await s.page.getByRole('button', { name: 'Reply' }).count(), 0);

    await s.page.goto('/mycollections');
    await s.page.getByRole('link', { name: 'Sales dashboard' }).click();
    await s.page.waitForURL(/\/mycollections\/dashboard$/);
    await s.page.locator('[data-testid="sales-chart"] canvas').waitFor();
    await s.page.getByText('Show the numbers as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    const row = s.page.getByRole('row', { name: new RegExp(today) });
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /120 Points/); // no platform fee by default
    await s.page.getByRole('link', { name: title }).first().waitFor();
    await noSeriousViolations(s.page, 'sales-dashboard');
    await screenshot(s.page, 'sales-dashboard-desktop');
    await s.page.setViewportSize(viewports.mobile);
    await screenshot(s.page, 'sales-dashboard-mobile');
    assert.deepEqual(s.errors, []);
  });
});
