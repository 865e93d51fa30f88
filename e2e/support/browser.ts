/**
 * Debian's Chromium (/usr/bin/chromium) through playwright-core — never a downloaded browser.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from './server';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = path.join(repoRoot, 'e2e/screenshots');

/** The two widths every page must look finished at. */
export const viewports = {
  desktop: { width: 1280, height: 900 },
  mobile: { width: 390, height: 844 },
} as const;

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A fresh page (own context, so own localStorage) at `viewport`; console errors and page errors
 * are collected in `errors`.
 */
export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = viewports.desktop,
) {
  const context = await browser.newContext({ baseURL, viewport, reducedMotion: 'reduce' });
  // A loaded 2-core CI machine can take longer than 10 s for a step.
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return { context, page, errors };
}

/**
 * Waits until the page is quiet: no request in flight, no loading view and no toast on screen
 * (toasts last 4 s), so that screenshots show the finished page.
 */
export async function settle(page: Page, timeoutMs = 15_000): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() => document.querySelectorAll('[role="status"][aria-live]').length === 0, null, {
    timeout: timeoutMs,
  });
}

/** False when E2E_SCREENSHOTS=false (as `.ci/run` sets it): no screenshot is taken or waited for. */
export function screenshotsOn(): boolean {
  return process.env.E2E_SCREENSHOTS !== 'false';
}

/**
 * Saves a full-page screenshot to e2e/screenshots/<name>.png (git-ignored), for a person to look
 * at: no spec compares them. E2E_SCREENSHOTS=false skips them (returns '').
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  if (!screenshotsOn()) return '';
  await mkdir(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Signs in through the login form and waits for the 'Login successful!' toast. */
export async function logIn(page: Page, account: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username or email').fill(account);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
  await page.getByText('Login successful!').waitFor();
}

/**
 * {@link settle}, then {@link screenshot}: the quiet page a person looks at. With E2E_SCREENSHOTS=false
 * neither runs (the wait is for the picture only; a spec's assertions wait on what they check).
 */
export async function settledScreenshot(page: Page, name: string): Promise<string> {
  if (!screenshotsOn()) return '';
  await settle(page);
  return screenshot(page, name);
}
