/**
 * Money journeys in Chromium against the real server (built web app, fresh DATA_DIR, sandbox
 * payments, payout worker on): top up 25 USDT and simulate the payment; cash out 10 USD and see
 * the record reach Success on /transactions; cash out to the sandbox's failing address and see it
 * end Refunded with the balance restored. Screenshots of every modal step at 1280 and 390 px, and
 * an axe check of every modal step in the light and dark themes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  call,
  DEFAULT_PASSWORD,
  launchBrowser,
  logIn as logInAs,
  newPage,
  registerUser,
  screenshotDir,
  seriousA11yViolations,
  startServer,
  viewports,
  type RunningServer,
  type TestUser,
} from '../support';

/** A screenshot of what is on screen (a modal sits over the viewport, so not the full page). */
async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** A valid TRON address (matches the sandbox's TRX pattern). */
const TRON_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';
/** The sandbox refuses payouts to addresses ending in `dead` (docs/payments.md). */
const FAILING_EVM_ADDRESS = '0x000000000000000000000000000000000000dEaD';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ PAYMENTS: 'sandbox', WORKERS: 'true' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function logIn(page: Page, user: TestUser) {
  await logInAs(page, user.username, user.password);
  await page.waitForURL(`${server.url}/`);
}

/** The balance button in the top bar (on phones it sits in the mobile menu). */
async function openBalance(page: Page, mobile = false): Promise<Locator> {
  if (mobile) {
    const menu = page.getByRole('button', { name: 'Open menu' });
    if (await menu.isVisible()) await menu.click();
  }
  await page
    .getByRole('button', { name: /^Balance:/ })
    .filter({ visible: true })
    .first()
    .click();
  const dialog = page.getByRole('dialog', { name: 'Balance' });
  await dialog.waitFor();
  return dialog;
}

async function balanceText(page: Page): Promise<string> {
  return (
    (await page
      .getByRole('button', { name: /^Balance:/ })
      .first()
      .getAttribute('aria-label')) ?? ''
  );
}

/** Waits until `fn` returns true (the payout worker runs every 2 s; the list refreshes every 5 s). */
async function eventually(fn: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`Timed out waiting for ${what}`);
}

async function fillCashOut(
  page: Page,
  dialog: Locator,
  opts: { network: string; amount: string; address: string; shot: string },
) {
  await dialog.getByRole('tab', { name: opts.network, exact: true }).click();
  const amount = dialog.getByLabel('Amount (USD)');
  await amount.fill('5');
  await amount.blur();
  await dialog.getByText('Minimum amount is 10 USD').waitFor();
  await amount.fill('100000');
  await dialog.getByText('Insufficient balance').waitFor();
  await amount.fill(opts.amount);
  const address = dialog.getByLabel(/address$/);
  await address.fill('not-an-address');
  await address.blur();
  await dialog.getByText('Invalid address format').first().waitFor();
  assert.equal(
    await dialog.getByRole('button', { name: 'Continue' }).isDisabled(),
    true,
    'Continue stays disabled with a bad address',
  );
  await address.fill(opts.address);
  await address.blur();
  // The fixed address took the 'Invalid address format' toast away; the fee came by itself.
  await page.getByText('Invalid address format').waitFor({ state: 'detached' });
  await dialog.getByText('Net points').waitFor();
  await screenshot(page, `${opts.shot}-cash-out-step1`);
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm withdraw' });
  await confirm.waitFor();
  await confirm.getByText('Receive amount').waitFor();
  assert.equal(
    await confirm.getByRole('button', { name: 'Confirm' }).isDisabled(),
    true,
    'Confirm is disabled until a password is typed',
  );
  await screenshot(page, `${opts.shot}-cash-out-confirm`);
  await confirm.getByLabel('Login password').fill(DEFAULT_PASSWORD);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await page.waitForURL('**/transactions');
}

describe('wallet', () => {
  test('top up 25 USDT, cash out 10 USD (Success) and to a failing address (Refunded)', async () => {
    const user = await registerUser(server.url);
    const { context, page, errors } = await newPage(browser, server.url, viewports.desktop);
    await logIn(page, user);

    // Balance modal, empty.
    let balance = await openBalance(page);
    await balance.getByText('Your transaction history will appear here.').waitFor();
    await balance.getByRole('tab', { name: 'Incoming' }).click();
    await balance.getByText('You have no incoming transactions. Try adding funds with Top-up.').waitFor();
    await screenshot(page, 'wallet-desktop-balance-empty');

    // Top-up step 1: USDT on the first network by default; the amount messages.
    await balance.getByRole('button', { name: 'Top-up', exact: true }).click();
    const topUp = page.getByRole('dialog', { name: 'Top-up' });
    await topUp.waitFor();
    await topUp.getByRole('radio', { name: 'USDT', checked: true }).waitFor();
    const amount = topUp.getByLabel('Amount (USDT)');
    await topUp.getByText('Minimum: 1 USDT').waitFor();
    await amount.fill('abc');
    await topUp.getByText('Please enter a valid amount.').waitFor();
    await amount.fill('0.5');
    await topUp.getByText('Minimum amount is 1 USDT.').waitFor();
    assert.equal(await topUp.getByRole('button', { name: 'Continue' }).isDisabled(), true);
    await amount.fill('25');
    await topUp.getByText('You will get: 2,500.00 points').waitFor();
    await screenshot(page, 'wallet-desktop-top-up-step1');
    // A double click on Continue creates one order (one deposit call, with an Idempotency-Key).
    const deposits: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/uc/v1/account/deposit') deposits.push(r.headers()['idempotency-key']);
    });
    await topUp.getByRole('button', { name: 'Continue' }).dblclick();

    // Order Details, then Scan to Pay.
    const details = page.getByRole('dialog', { name: 'Order Details' });
    await details.waitFor();
    await page.getByText('Order created successfully').waitFor();
    await details.getByText('25.00 USD').waitFor();
    await details.getByText('25.00000000 USDT').waitFor();
    assert.equal(deposits.length, 1, `deposit sent ${deposits.length} times`);
    assert.match(deposits[0] ?? '', /^"[0-9a-f-]{36}"$/);
    assert.match((await details.getByTestId('countdown').textContent()) ?? '', /^(30:00|29:5\d)$/);
    await screenshot(page, 'wallet-desktop-top-up-order-details');
    await details.getByRole('button', { name: 'Proceed to Pay' }).click();
    const pay = page.getByRole('dialog', { name: 'Scan to Pay' });
    await pay.waitFor();
    const qr = pay.getByTestId('deposit-qr');
    assert.equal(await qr.getAttribute('width'), '160');
    await pay.getByText('Send only USDT on the TRX network to this address.', { exact: false }).waitFor();
    await screenshot(page, 'wallet-desktop-top-up-scan-to-pay');
    await pay.getByRole('button', { name: 'Check Payment Status' }).click();
    await page.getByText('Payment not completed yet').waitFor();

    // Simulated payment: green 'Payment Confirmed', toast, closes after 3 s, balance 2,500.00.
    await pay.getByRole('button', { name: 'Simulate payment' }).click();
    await pay.getByRole('button', { name: 'Payment Confirmed' }).waitFor();
    await page.getByText('Payment confirmed', { exact: true }).waitFor();
    await screenshot(page, 'wallet-desktop-top-up-confirmed');
    await pay.waitFor({ state: 'detached', timeout: 10_000 });
    await eventually(async () => (await balanceText(page)).includes('2,500.00'), 'the balance to show 2,500.00');

    balance = await openBalance(page);
    const topUpRow = balance.getByRole('button', { name: /^Top-up \+2,500\.00 points, Success/ });
    await topUpRow.waitFor();
    await screenshot(page, 'wallet-desktop-balance-with-top-up');

    // The bill detail opened from the row.
    await topUpRow.click();
    const bill = page.getByRole('dialog', { name: 'Top-up order' });
    await bill.getByText('Success').waitFor();
    await screenshot(page, 'wallet-desktop-top-up-bill-detail');
    await page.keyboard.press('Escape');
    await bill.waitFor({ state: 'detached' });

    // Cash out 10 USD to a valid TRON address.
    await balance.getByRole('button', { name: 'Cash out', exact: true }).click();
    const cashOut = page.getByRole('dialog', { name: 'Cash out' });
    await cashOut.waitFor();
    await fillCashOut(page, cashOut, { network: 'TRX', amount: '10', address: TRON_ADDRESS, shot: 'wallet-desktop' });

    const row = page.getByRole('button', { name: /^Cash out -1,000\.00 points/ }).first();
    await row.waitFor();
    await eventually(
      async () => /Success/.test((await row.getAttribute('aria-label')) ?? ''),
      'the cash-out record to reach Success',
    );
    await eventually(async () => (await balanceText(page)).includes('1,500.00'), 'the balance to show 1,500.00');
    await screenshot(page, 'wallet-desktop-transactions');

    // Withdrawal detail from the row.
    await row.click();
    const withdrawal = page.getByRole('dialog', { name: 'Withdrawal details' });
    await withdrawal.getByText('Status: Completed').waitFor();
    await withdrawal.getByText(TRON_ADDRESS).waitFor();
    await screenshot(page, 'wallet-desktop-withdrawal-detail');
    await page.keyboard.press('Escape');

    // Status chips filter the list.
    await page.getByRole('button', { name: 'Refunded', exact: true }).click();
    // The empty state names the filter rather than claiming there are no transactions at all.
    await page.getByText('No matching transactions').waitFor();
    await page.getByText(/^No refunded (outgoing |incoming )?transactions\.$/).waitFor();
    await page.getByRole('button', { name: 'All statuses' }).click();
    await row.waitFor();

    assert.deepEqual(errors, []);
    await context.close();

    // On a phone: the failing address ends Refunded and the balance comes back.
    await cashOutToFailingAddress(user);
  });
});

async function cashOutToFailingAddress(user: TestUser) {
  const { context, page, errors } = await newPage(browser, server.url, viewports.mobile);
  await logIn(page, user);
  let balance = await openBalance(page, true);
  await balance.getByRole('button', { name: /^Top-up \+2,500\.00 points, Success/ }).waitFor();
  await screenshot(page, 'wallet-mobile-balance');

  // The top-up steps at 390 px (an order left unpaid).
  await balance.getByRole('button', { name: 'Top-up', exact: true }).click();
  const topUp = page.getByRole('dialog', { name: 'Top-up' });
  await topUp.getByLabel('Amount (USDT)').fill('5');
  await topUp.getByText('You will get: 500.00 points').waitFor();
  await screenshot(page, 'wallet-mobile-top-up-step1');
  await topUp.getByRole('button', { name: 'Continue' }).click();
  const details = page.getByRole('dialog', { name: 'Order Details' });
  await details.waitFor();
  await screenshot(page, 'wallet-mobile-top-up-order-details');
  await details.getByRole('button', { name: 'Proceed to Pay' }).click();
  const pay = page.getByRole('dialog', { name: 'Scan to Pay' });
  await pay.waitFor();
  await screenshot(page, 'wallet-mobile-top-up-scan-to-pay');
  // Back goes Scan to Pay -> Order Details -> step 1; closing resets the order.
  await pay.getByRole('button', { name: 'Back' }).click();
  await details.waitFor();
  await details.getByRole('button', { name: 'Back' }).click();
  await topUp.waitFor();
  await page.keyboard.press('Escape');
  await topUp.waitFor({ state: 'detached' });

  balance = await openBalance(page, true);
  await balance.getByRole('button', { name: 'Cash out', exact: true }).click();
  const cashOut = page.getByRole('dialog', { name: 'Cash out' });
  await cashOut.waitFor();
  await fillCashOut(page, cashOut, { network: 'BSC', amount: '10', address: FAILING_EVM_ADDRESS, shot: 'wallet-mobile' });

  const row = page.getByRole('button', { name: /^Cash out -1,000\.00 points/ }).first();
  await eventually(
    async () => /Refunded/.test((await row.getAttribute('aria-label')) ?? ''),
    'the failing cash-out to end Refunded',
  );
  await page.getByRole('button', { name: 'Open menu' }).click();
  await eventually(async () => (await balanceText(page)).includes('1,500.00'), 'the balance to be restored to 1,500.00');
  await screenshot(page, 'wallet-mobile-transactions');

  await row.click();
  const withdrawal = page.getByRole('dialog', { name: 'Withdrawal details' });
  await withdrawal.getByText('Status: Failed').waitFor();
  await screenshot(page, 'wallet-mobile-withdrawal-detail');
  assert.deepEqual(errors, []);
  await context.close();
}

describe('wallet accessibility', () => {
  test('no serious or critical axe violation in the wallet modals and the transactions page, light and dark', async () => {
    const user = await registerUser(server.url);
    // Fund the account through the API: a 25 USDT bill paid by the sandbox.
    const created = await call<{ bill: { id: string } }>(
      server.url,
      '/api/uc/v1/account/deposit',
      { amount: '2500.00', pay_currency: 'usdttrc20' },
      user.token,
    );
    await call(server.url, '/api/dev/sandbox/pay', { bill_id: created.data.bill.id }, user.token);

    const { context, page } = await newPage(browser, server.url, viewports.desktop);
    await logIn(page, user);
    const found: Record<string, unknown> = {};
    const check = async (label: string) => {
      await page.waitForTimeout(50); // let the dialog finish mounting its portal
      const violations = await seriousA11yViolations(page);
      if (violations.length) found[label] = violations;
    };
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => localStorage.setItem('coffer-theme', t), theme);
      await page.goto('/transactions');
      await page.getByRole('button', { name: /^Top-up \+2,500\.00 points, Success/ }).waitFor();
      await check(`${theme} /transactions`);

      const balance = await openBalance(page);
      await balance.getByRole('button', { name: /^Top-up \+2,500\.00/ }).waitFor();
      await check(`${theme} balance modal`);
      if (theme === 'dark') await screenshot(page, 'wallet-desktop-dark-balance');

      await balance.getByRole('button', { name: 'Top-up', exact: true }).click();
      const topUp = page.getByRole('dialog', { name: 'Top-up' });
      await topUp.getByText('Minimum: 1 USDT').waitFor();
      await topUp.getByLabel('Amount (USDT)').fill('0.5');
      await topUp.getByText('Minimum amount is 1 USDT.').waitFor();
      await check(`${theme} top-up step 1 with an error`);
      await topUp.getByLabel('Amount (USDT)').fill('5');
      await topUp.getByRole('button', { name: 'Continue' }).click();
      const details = page.getByRole('dialog', { name: 'Order Details' });
      await details.getByRole('button', { name: 'Proceed to Pay' }).waitFor();
      await check(`${theme} order details`);
      await details.getByRole('button', { name: 'Proceed to Pay' }).click();
      const pay = page.getByRole('dialog', { name: 'Scan to Pay' });
      await pay.getByRole('button', { name: 'Check Payment Status' }).waitFor();
      await check(`${theme} scan to pay`);
      if (theme === 'dark') await screenshot(page, 'wallet-desktop-dark-scan-to-pay');
      await page.keyboard.press('Escape');
      await pay.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Cash out', exact: true }).click();
      const cashOut = page.getByRole('dialog', { name: 'Cash out' });
      await cashOut.getByText(/1 USD = 100 P-coin/).waitFor();
      await cashOut.getByLabel('Amount (USD)').fill('5');
      const address = cashOut.getByLabel(/address$/);
      await address.fill('nope');
      await address.blur();
      await cashOut.getByText('Minimum amount is 10 USD').waitFor();
      await check(`${theme} cash-out step 1 with errors`);
      if (theme === 'dark') await screenshot(page, 'wallet-desktop-dark-cash-out-errors');
      await cashOut.getByLabel('Amount (USD)').fill('10');
      await address.fill(TRON_ADDRESS);
      await address.blur();
      await cashOut.getByRole('button', { name: 'Continue' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm withdraw' });
      await confirm.getByText('Receive amount').waitFor();
      await check(`${theme} confirm withdraw`);
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
    }
    assert.deepEqual(found, {});
    await context.close();
  });
});
