/**
 * The TON top-up's Scan to Pay (docs/payments.md "ton"): the deposit address, the memo row with
 * its copy button and the warning that a transfer without the memo cannot be matched, at 390 and
 * 1280 px, with the longest values the contract lets an order carry — a 64-character memo
 * (`extra_id` of the TON pattern `^[0-9A-Za-z_-]{1,64}$`; the TON rail itself issues 8) and a
 * 48-character user-friendly TON address. The sandbox issues no memo, so the order's answers
 * (`deposit`, `deposit/bill/detail`) are given those values on their way to the page; everything
 * else is the real server (sandbox payments). The page must be no wider than the window
 * (`scrollWidth <= innerWidth`), the memo, its copy button and the warning must lie inside the
 * dialog. Screenshots: e2e/screenshots/ton-top-up-scan-to-pay-{mobile,desktop}.png.
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  logIn,
  newPage,
  registerUser,
  screenshotDir,
  startServer,
  viewports,
  type RunningServer,
} from '../support';

/** The longest memo the TON pattern allows: 64 characters, no space to break at. */
const LONG_MEMO = 'M'.repeat(8) + 'x9_-Q'.repeat(11) + 'Z';
/** A user-friendly TON address: 48 characters (`UQ` + 46), no space to break at. */
const TON_ADDRESS = 'UQ' + 'A1b2C3d4E5f6G7h8I9j0K_L-M'.repeat(2).slice(0, 46);
const MEMO_WARNING =
  'Enter this memo as the comment of your transfer. A transfer without it cannot be matched to your order and will not be credited.';

let server: RunningServer;
let browser: Browser;

before(async () => {
  assert.equal(LONG_MEMO.length, 64);
  assert.equal(TON_ADDRESS.length, 48);
  server = await startServer({ PAYMENTS: 'sandbox' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Gives every TON order answer the longest memo and address (the page shows what the API says). */
async function longTonValues(page: Page): Promise<void> {
  await page.route(/\/api\/uc\/v1\/account\/deposit(\/bill\/detail)?$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as {
      data?: { bill?: { network?: string; extra_id?: string | null; address?: string } };
    };
    const bill = body.data?.bill;
    if (bill && bill.network === 'TON') {
      bill.extra_id = LONG_MEMO;
      bill.address = TON_ADDRESS;
    }
    await route.fulfill({ response, json: body });
  });
}

async function openScanToPay(page: Page, mobile: boolean) {
  if (mobile) {
    const menu = page.getByRole('button', { name: 'Open menu' });
    if (await menu.isVisible()) await menu.click();
  }
  await page
    .getByRole('button', { name: /^Balance:/ })
    .filter({ visible: true })
    .first()
    .click();
  const balance = page.getByRole('dialog', { name: 'Balance' });
  await balance.getByRole('button', { name: 'Top-up', exact: true }).click();
  const topUp = page.getByRole('dialog', { name: 'Top-up' });
  await topUp.getByRole('tab', { name: 'TON', exact: true }).click();
  await topUp.getByLabel('Amount (USDT)').fill('25');
  await topUp.getByText('You will get: 2,500.00 points').waitFor();
  await topUp.getByRole('button', { name: 'Continue' }).click();
  const details = page.getByRole('dialog', { name: 'Order Details' });
  await details.getByRole('button', { name: 'Proceed to Pay' }).click();
  const pay = page.getByRole('dialog', { name: 'Scan to Pay' });
  await pay.waitFor();
  return pay;
}

/** `inner`'s box lies inside `outer`'s (1 px of rounding allowed). */
function inside(inner: { x: number; y: number; width: number; height: number }, outer: { x: number; width: number }) {
  return inner.x >= outer.x - 1 && inner.x + inner.width <= outer.x + outer.width + 1;
}

describe('TON top-up, Scan to Pay with the longest memo and address', () => {
  for (const [name, viewport] of [
    ['mobile', viewports.mobile],
    ['desktop', viewports.desktop],
  ] as const) {
    test(`fits the window at ${viewport.width} px`, async () => {
      const user = await registerUser(server.url);
      const { context, page, errors } = await newPage(browser, server.url, viewport);
      try {
        await longTonValues(page);
        await logIn(page, user.username, user.password);
        await page.waitForURL(`${server.url}/`);
        const pay = await openScanToPay(page, name === 'mobile');
        const memo = pay.getByTestId('deposit-memo');
        assert.equal(await memo.textContent(), LONG_MEMO);
        assert.equal(await pay.getByTestId('deposit-address').textContent(), TON_ADDRESS);
        await pay.getByText(MEMO_WARNING).waitFor();
        await pay.getByRole('button', { name: 'Copy memo' }).waitFor();

        const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
        assert.ok(widths.scroll <= widths.inner, `page ${widths.scroll} px wide in a ${widths.inner} px window`);
        const dialogBox = (await pay.boundingBox())!;
        assert.ok(
          dialogBox.x >= 0 && dialogBox.x + dialogBox.width <= viewport.width + 1,
          `dialog ${JSON.stringify(dialogBox)} leaves the window`,
        );
        for (const part of [
          memo,
          pay.getByRole('button', { name: 'Copy memo' }),
          pay.getByTestId('deposit-memo-warning'),
          pay.getByTestId('deposit-address'),
          pay.getByRole('button', { name: 'Copy address' }),
        ]) {
          await part.scrollIntoViewIfNeeded();
          const box = (await part.boundingBox())!;
          assert.ok(
            inside(box, dialogBox),
            `${await part.evaluate((e) => e.outerHTML.slice(0, 80))} ${JSON.stringify(box)} outside the dialog ${JSON.stringify(dialogBox)}`,
          );
        }
        // The memo wraps inside its row rather than widening it.
        const memoOverflow = await memo.evaluate((e) => e.scrollWidth - e.clientWidth);
        assert.ok(memoOverflow <= 0, `the memo overflows its row by ${memoOverflow} px`);

        if (process.env.E2E_SCREENSHOTS !== 'false') {
          await mkdir(screenshotDir, { recursive: true });
          // The toasts (4 s) gone, so the shot shows the dialog alone.
          for (const toast of ['Order created successfully', 'Login successful!'])
            await page.getByText(toast, { exact: true }).waitFor({ state: 'hidden', timeout: 10_000 });
          await pay.getByTestId('deposit-memo').scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(screenshotDir, `ton-top-up-scan-to-pay-${name}.png`) });
        }
        assert.deepEqual(errors, []);
      } finally {
        await context.close();
      }
    });
  }
});
