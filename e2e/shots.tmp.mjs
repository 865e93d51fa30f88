// Temporary screenshot driver (not committed).
import { chromium } from 'playwright-core';
const base = process.env.BASE ?? 'http://127.0.0.1:8090';
const post = async (p, body, token) => {
  const r = await fetch(base + p, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return (await r.json());
};
import { createHash } from 'node:crypto';
const md5 = (s) => createHash('md5').update(s).digest('hex');
const login = async (u) => (await post('/api/uc/v1/account/login', { account: u, password: md5('Coffer#2026') })).data.access_token;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
async function shot(token, user, path, name, width) {
  const ctx = await browser.newContext({ baseURL: base, viewport: { width, height: 900 }, reducedMotion: 'reduce' });
  const page = await ctx.newPage();
  const errs = [];
  page.on('pageerror', (e) => errs.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errs.push(m.text()));
  if (token) {
    await page.goto('/terms');
    await page.evaluate(([t, u]) => { localStorage.setItem('accessToken', t); localStorage.setItem('coffer-auth', JSON.stringify({ state: { user: u, token: t, isAuthenticated: true }, version: 0 })); }, [token, user]);
  }
  await page.goto(path);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `/tmp/shots/${name}-${width}.png`, fullPage: true });
  if (errs.length) console.log(name, width, 'errors:', errs.join(' | '));
  await ctx.close();
}
const who = process.argv[2]; const paths = process.argv.slice(3);
const token = who === 'anon' ? null : await login(who);
const user = token ? (await post('/api/uc/v1/account/get/me', {}, token)).data : null;
for (const p of paths) {
  const [path, name] = p.split('=');
  for (const w of [1280, 390]) await shot(token, user, path, name, w);
}
await browser.close();
