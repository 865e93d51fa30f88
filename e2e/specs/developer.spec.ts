/**
 * Personal access tokens in Chromium against the real server (docs/decisions/0058, 0059): a user
 * creates a token on the Developer tab (password re-entered), reads it once from the dialog, uses
 * it with fetch on a call its scope allows and on one it does not (and on a session-only call),
 * revokes it after a confirmation, and the revoked token answers 401. The tab strip and a 100-
 * character name fit at 390 and 1280 px; screenshots at both widths.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  DEFAULT_PASSWORD,
  launchBrowser,
  logIn,
  newPage,
  registerUser,
  screenshot,
  seriousA11yViolations,
  settle,
  startServer,
  viewports,
  type RunningServer,
} from '../support';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The page's width beyond the window, in px (0 when nothing scrolls sideways). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** POSTs from the page with `token` as bearer, as an integrator's script would. */
function fetchWith(page: Page, path: string, token: string, body: unknown = {}) {
  return page.evaluate(
    async ([p, t, b]) => {
      const res = await fetch(p as string, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${t as string}` },
        body: JSON.stringify(b),
      });
      return {
        status: res.status,
        body: (await res.json()) as { code: number; reason?: string; data?: { scope?: string | null } },
      };
    },
    [path, token, body] as const,
  );
}

describe('personal access tokens', () => {
  test('create on the Developer tab, use with fetch, revoke', { timeout: 180_000 }, async () => {
    const user = await registerUser(server.url);
    const { context, page, errors } = await newPage(browser, server.url, viewports.mobile);
    await logIn(page, user.username, DEFAULT_PASSWORD);
    await page.goto('/profile/developer');
    await page.getByText('No tokens yet').waitFor();
    const strip = page.getByRole('navigation', { name: 'Profile sections' });
    await strip.getByRole('link', { name: 'Developer' }).waitFor();
    assert.equal(await overflow(page), 0, 'the tab strip fits at 390 px');

    const name = `Export${'x'.repeat(94)}`;
    await page.getByRole('button', { name: 'Create token' }).click();
    const dialog = page.getByRole('dialog', { name: 'New personal access token' });
    await dialog.getByLabel('Name', { exact: true }).fill(name);
    await dialog.getByLabel('Expires in').selectOption('7');
    await dialog.getByRole('checkbox', { name: /orders:read/ }).check();
    await dialog.getByLabel('Password', { exact: true }).fill(DEFAULT_PASSWORD);
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('dialog', { name: 'Copy your new token' });
    const token = (await shown.getByLabel('New token').textContent())?.trim() ?? '';
    assert.match(token, /^coffer_pat_[0-9A-Za-z]{36}$/);
    await shown.getByText("you won't be able to see it again", { exact: false }).waitFor();
    await shown.getByRole('button', { name: 'Copy token' }).waitFor();
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('list', { name: 'Personal access tokens' }).getByText(name).waitFor();
    assert.equal(await page.getByText(token).count(), 0, 'the token is not shown again');

    // The token as a script uses it.
    const orders = await fetchWith(page, '/sl/v1/my/orders', token);
    assert.equal(orders.body.code, 10000);
    const noScope = await fetchWith(page, '/sl/v1/my/collections', token);
    assert.deepEqual(
      [noScope.status, noScope.body.reason, noScope.body.data?.scope],
      [403, 'INSUFFICIENT_SCOPE', 'collections:read'],
    );
    const sessionOnly = await fetchWith(page, '/api/uc/v1/account/token/list', token);
    assert.deepEqual([sessionOnly.status, sessionOnly.body.reason], [403, 'INSUFFICIENT_SCOPE']);

    for (const viewport of [viewports.mobile, viewports.desktop]) {
      await page.setViewportSize(viewport);
      await page.reload();
      await page.getByText(name).waitFor();
      await settle(page);
      assert.equal(await overflow(page), 0, `the long name fits at ${viewport.width} px`);
      await screenshot(page, `developer-tokens-${viewport.width}`);
    }
    assert.deepEqual(await seriousA11yViolations(page), []);

    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Revoke "${name}"?` });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Token revoked').waitFor();
    await page.getByText('No tokens yet').waitFor();
    const revoked = await fetchWith(page, '/sl/v1/my/orders', token);
    assert.deepEqual([revoked.status, revoked.body.reason], [401, 'UNAUTHORIZED']);

    assert.deepEqual(
      errors.filter((e) => !/401|403/.test(e)),
      [],
    );
    await context.close();
  });
});
