/**
 * `npm run demo:seed`: fills the configured database and storage (`DATA_DIR`, `DATABASE_URL`,
 * `STORAGE`... as `npm start` reads them) with a living storefront — sellers with avatars,
 * published collections with generated banners and real files (PNG, PDF, ZIP, CSV, JSON, SVG,
 * Markdown), drafts, buyers who topped up through the sandbox and bought collections, and two
 * cash-outs paid by the sandbox — then checks the ledger and prints the accounts and counts.
 *
 * Everything goes through the real routes of an app built by `buildApp` with workers off
 * (`app.inject`; presigned uploads are PUT to the URLs the API hands out), so every rule, ledger
 * posting and record is the product's own. The app runs on a {@link ManualClock} that plays the
 * story of demo-assets/catalog.ts over the last four weeks, so dates and histories look lived-in.
 *
 * Refuses (exit code 2) when NODE_ENV=production, when PAYMENTS is not `sandbox`, and when the
 * database already has users unless `--force` is given. Run it while no server uses the database:
 * PGlite allows one process, and a running server's expiry job would expire the story's
 * back-dated bills between two of its steps.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DepositStatus, minorToPoints, OrderStatus, WithdrawStatus } from '@coffer/contract';
import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { users } from '../db/schema/index';
import { commandConfig } from './command-config';
import { ManualClock } from '../lib/clock';
import { verifyLedger, type LedgerVerifyReport } from '../modules/ledger/ledger.verify';
import { artPng, prng } from './demo-assets/art';
import {
  COLLECTIONS,
  PEOPLE,
  STORY_DAYS,
  TIMELINE,
  type DemoCollection,
  type DemoEvent,
  type DemoPerson,
} from './demo-assets/catalog';
import type { DemoFile } from './demo-assets/formats';
import { DEMO_REVIEWS, type DemoReview } from './demo-assets/reviews';

/** The password of every demo account (meets product §5). */
export const DEMO_PASSWORD = 'Coffer#2026';

/** Domain of the demo accounts' emails (reserved for examples, RFC 2606). */
export const DEMO_EMAIL_DOMAIN = 'example.com';

const DAY = 86_400_000;
const MINUTE = 60_000;

const md5 = (v: string | Buffer): string => createHash('md5').update(v).digest('hex');

export interface SeedOptions {
  /** The app's clock (the one passed to `buildApp`); the seed moves it through the story. */
  clock: ManualClock;
  /** Multiplies generated image sizes (default 1; tests use less). */
  imageScale?: number;
  /** Where the story ends (ms; default now). */
  endAt?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface SeededUser {
  id: string;
  username: string;
  email: string;
  nickname: string;
  role: 'seller' | 'buyer';
  /** Available points after the story (decimal string). */
  available: string;
  /** Sale proceeds still in their holding period at the story's end (points, 2 decimals). */
  pending: string;
  /** Published collections (sellers). */
  published: number;
  /** Unpublished collections (sellers). */
  drafts: number;
  /** Collections bought. */
  bought: number;
}

export interface SeedSummary {
  password: string;
  users: SeededUser[];
  collections: { published: number; drafts: number; files: number; bytes: number };
  topUps: { paid: number; expired: number };
  purchases: number;
  cashOuts: number;
  /** Collection id by catalog key. */
  collectionIds: Record<string, string>;
}

/** Why the seed must not run here, or null. Safety rules of the demo seed itself (no product rule covers them). */
export function refusal(input: { nodeEnv: string; payments: string; userCount: number; force: boolean }): string | null {
  if (input.nodeEnv === 'production') return 'demo:seed refuses to run with NODE_ENV=production.';
  if (input.payments !== 'sandbox')
    return `demo:seed needs PAYMENTS=sandbox (top-ups are paid through the sandbox); PAYMENTS is ${input.payments}.`;
  if (input.userCount > 0 && !input.force) {
    return `The database already has ${input.userCount} user(s); demo:seed only fills an empty one. Use a fresh DATA_DIR (or database), or pass --force to add the demo data anyway.`;
  }
  return null;
}

/** Number of users in the app's database (deleted ones included). */
export async function countUsers(app: FastifyInstance): Promise<number> {
  const [row] = await app.ctx.database.db.select({ n: count() }).from(users);
  return Number(row?.n ?? 0);
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}

/** The API as a person at `ip` uses it: JSON POSTs and presigned PUTs. Throws on any failure. */
function client(app: FastifyInstance) {
  const publicUrl = app.ctx.config.publicUrl;
  return {
    async call<T = any>(url: string, body: unknown, token?: string, ip = '127.0.0.1'): Promise<T> {
      const res = await app.inject({
        method: 'POST',
        url,
        remoteAddress: ip,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        payload: JSON.stringify(body ?? {}),
      });
      let env: Envelope<T>;
      try {
        env = res.json();
      } catch {
        throw new Error(`${url}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      if (env.code !== 10000) throw new Error(`${url}: ${env.msg} (HTTP ${res.statusCode})`);
      return env.data;
    },
    /** PUTs bytes to a presigned URL: the app's own local-storage URL through the app, any other (S3) over HTTP. */
    async put(url: string, data: Buffer, contentType: string): Promise<void> {
      if (url.startsWith(`${publicUrl}/`)) {
        const u = new URL(url);
        const res = await app.inject({
          method: 'PUT',
          url: `${u.pathname}${u.search}`,
          payload: data,
          headers: { 'content-type': contentType },
        });
        if (res.statusCode !== 200) throw new Error(`PUT ${u.pathname}: HTTP ${res.statusCode} ${res.body.slice(0, 200)}`);
        return;
      }
      const res = await fetch(url, { method: 'PUT', body: data, headers: { 'content-type': contentType } });
      if (!res.ok) throw new Error(`PUT ${new URL(url).host}: HTTP ${res.status}`);
    },
  };
}

const uc = (p: string) => `/api/uc/v1/account${p}`;
const sl = (p: string) => `/sl/v1${p}`;

/**
 * Plays the demo story (demo-assets/catalog.ts) through the app's routes.
 * @returns what was created, with each user's final balance
 * @throws Error naming the call and the API's message when any step fails (e.g. a demo username
 * already taken); what ran before stays (each step is its own transaction)
 */
export async function seedDemo(app: FastifyInstance, options: SeedOptions): Promise<SeedSummary> {
  const { clock } = options;
  const api = client(app);
  const log = options.log ?? (() => {});
  const scale = options.imageScale ?? 1;
  const password = md5(DEMO_PASSWORD);
  const jitter = prng(20260101);
  const start = Math.floor(((options.endAt ?? Date.now()) - STORY_DAYS * DAY) / 3_600_000) * 3_600_000;
  // A person takes a few seconds between clicks.
  const pause = () => clock.advance(5_000 + Math.floor(jitter() * 40_000));
  // Sessions expire in story time too: a person logs in again once half the session lifetime has passed.
  const reloginAfterMs = (app.ctx.config.SESSION_TTL_HOURS * 3_600_000) / 2;

  interface Actor {
    person: DemoPerson;
    id: string;
    username: string;
    email: string;
    ip: string;
    token: string;
    loggedInAt: number;
  }
  const actors = new Map<string, Actor>();
  const collectionIds: Record<string, string> = {};
  const counts = { published: 0, drafts: 0, files: 0, bytes: 0, paid: 0, expired: 0, purchases: 0, cashOuts: 0 };
  // One file of the catalogue gets a second version (product §24).
  let replacedOne = false;
  const bought = new Map<string, number>();

  const actor = (key: string): Actor => {
    const a = actors.get(key);
    if (!a) throw new Error(`demo story: ${key} acts before registering`);
    return a;
  };
  /** The actor's token, logging in again when the session is old (sessions expire in story time too). */
  const session = async (a: Actor): Promise<string> => {
    if (clock.now() - a.loggedInAt > reloginAfterMs) {
      const { access_token } = await api.call<{ access_token: string }>(
        uc('/login'),
        { account: a.username, password },
        undefined,
        a.ip,
      );
      a.token = access_token;
      a.loggedInAt = clock.now();
    }
    return a.token;
  };
  const as = async <T = any>(a: Actor, url: string, body: unknown): Promise<T> => {
    const token = await session(a);
    pause();
    return api.call<T>(url, body, token, a.ip);
  };

  /** Uploads an image through `url` (create/banner/url or avatar/url). @returns the value to save */
  const uploadImage = async (a: Actor, url: string, png: Buffer, field: 'banner' | 'avatar'): Promise<string> => {
    const presigned = await as<Record<string, string>>(a, url, { content_type: 'image/png', size: png.length });
    await api.put(presigned.url!, png, 'image/png');
    return presigned[field]!;
  };

  const uploadFile = async (a: Actor, file: DemoFile): Promise<string> => {
    const start = await as<{ upload_id: string; url: string }>(a, sl('/upload/resource/url'), {
      file_name: file.name,
      size: file.data.length,
      md5: md5(file.data),
      content_type: file.contentType,
    });
    await api.put(start.url, file.data, 'application/octet-stream');
    const resource = await as<{ id: string }>(a, sl('/complete/upload'), { upload_id: start.upload_id, parts: [] });
    return resource.id;
  };

  const handlers: { [K in DemoEvent['kind']]: (e: Extract<DemoEvent, { kind: K }>) => Promise<void> } = {
    async register(e) {
      const person = PEOPLE.find((p) => p.key === e.person)!;
      const username = person.username;
      const email = `${username.replace(/_/g, '.')}@${DEMO_EMAIL_DOMAIN}`;
      const ip = `198.51.100.${actors.size + 10}`;
      const { access_token } = await api.call<{ access_token: string }>(
        uc('/register'),
        { username, email, password, nickname: person.nickname },
        undefined,
        ip,
      );
      const me = await api.call<{ id: string }>(uc('/get/me'), {}, access_token, ip);
      const a: Actor = { person, id: me.id, username, email, ip, token: access_token, loggedInAt: clock.now() };
      actors.set(person.key, a);
      const png = artPng({ width: 256, height: 256, ...person.avatar });
      const avatar = await uploadImage(a, uc('/avatar/url'), png, 'avatar');
      await as(a, uc('/change'), { avatar });
      log(`registered ${username}`);
    },

    async create(e) {
      const c: DemoCollection = COLLECTIONS.find((x) => x.key === e.collection)!;
      const a = actor(c.seller);
      const png = artPng({ width: Math.round(1280 * scale), height: Math.round(720 * scale), ...c.banner });
      const banner = await uploadImage(a, sl('/create/banner/url'), png, 'banner');
      const created = await as<{ id: string }>(a, sl('/collection/create'), {
        title: c.title,
        desc: c.desc,
        amount: c.price,
        banner,
      });
      collectionIds[c.key] = created.id;
      const added: { id: string; file: DemoFile }[] = [];
      for (const file of await c.files({ imageScale: scale })) {
        const resourceId = await uploadFile(a, file);
        await as(a, sl('/collection/resource/add'), { collection_id: created.id, resource_id: resourceId });
        added.push({ id: resourceId, file });
        counts.files++;
        counts.bytes += file.data.length;
      }
      if (c.draft) counts.drafts++;
      else {
        await as(a, sl('/collection/publish'), { collection_id: created.id });
        counts.published++;
        // product §24: the first file of every published collection is a free preview, and the
        // first text file of one collection gets a second version (an added closing line).
        await as(a, sl('/collection/resource/preview'), { collection_id: created.id, resource_id: added[0]!.id, preview: true });
        const text = added.find((x) => x.file.contentType.startsWith('text/'));
        if (text && !replacedOne) {
          replacedOne = true;
          const v2: DemoFile = { ...text.file, data: Buffer.concat([text.file.data, Buffer.from('\n(Second edition.)\n')]) };
          const newId = await uploadFile(a, v2);
          await as(a, sl('/collection/resource/replace'), {
            collection_id: created.id,
            resource_id: text.id,
            new_resource_id: newId,
          });
          log(`replaced "${text.file.name}" of "${c.title}" with version 2`);
        }
      }
      log(`${c.draft ? 'drafted' : 'published'} "${c.title}" by ${a.username}`);
    },

    async 'top-up'(e) {
      const a = actor(e.person);
      const { bill } = await as<{ bill: { id: string } }>(a, uc('/deposit'), { amount: e.points, pay_currency: e.currency });
      const paid = await as<{ bill: { status: string } }>(a, '/api/dev/sandbox/pay', { bill_id: bill.id });
      if (paid.bill.status !== DepositStatus.Success) throw new Error(`top-up of ${a.username} ended ${paid.bill.status}`);
      counts.paid++;
      log(`${a.username} topped up ${e.points} points (${e.currency})`);
    },

    async 'top-up-expired'(e) {
      const a = actor(e.person);
      const { bill } = await as<{ bill: { id: string } }>(a, uc('/deposit'), { amount: e.points, pay_currency: e.currency });
      // Left unpaid past its 1800 s lifetime; the expiry job (a worker in `npm start`) marks it.
      clock.advance(31 * MINUTE);
      await app.ctx.services.deposits.expireDue();
      const detail = await as<{ bill: { status: string } }>(a, uc('/deposit/bill/detail'), { user_id: a.id, bill_id: bill.id });
      if (detail.bill.status !== DepositStatus.Expired)
        throw new Error(`unpaid top-up of ${a.username} is ${detail.bill.status}`);
      counts.expired++;
      log(`${a.username} let a top-up of ${e.points} points expire`);
    },

    async buy(e) {
      const a = actor(e.person);
      const collectionId = collectionIds[e.collection];
      if (!collectionId) throw new Error(`demo story: ${e.collection} is bought before it exists`);
      const order = await as<{ id: string }>(a, sl('/collection/buy'), {
        collection_id: collectionId,
        ...(e.code ? { code: e.code } : {}),
      });
      const paid = await as<{ status: string }>(a, uc('/order/pay'), { order_id: order.id, password });
      if (paid.status !== OrderStatus.Paid) throw new Error(`order of ${a.username} ended ${paid.status}`);
      counts.purchases++;
      bought.set(e.person, (bought.get(e.person) ?? 0) + 1);
      log(`${a.username} bought ${e.collection}`);
    },

    async 'refund-request'(e) {
      const a = actor(e.person);
      const collectionId = collectionIds[e.collection];
      if (!collectionId) throw new Error(`demo story: ${e.collection} is refunded before it exists`);
      const { orders } = await as<{ orders: { id: string; collection_id: string }[] }>(a, sl('/my/orders'), {
        paginator: { page: 0, size: 50 },
      });
      const order = orders.find((o) => o.collection_id === collectionId);
      if (!order) throw new Error(`demo story: ${a.username} asks a refund of ${e.collection} without an order`);
      // A file was downloaded under the order, so the request waits for the seller.
      const detail = await as<{ resources: { id: string }[] }>(a, sl('/collection/detail'), { collection_id: collectionId });
      await as(a, sl('/resource/download/url'), { collection_id: collectionId, resource_id: detail.resources[0]!.id });
      const asked = await as<{ status: string; refund_request: unknown }>(a, uc('/order/refund/request'), {
        order_id: order.id,
        reason: e.reason,
      });
      if (asked.status !== OrderStatus.Paid || !asked.refund_request)
        throw new Error(`refund request of ${a.username} ended ${asked.status}`);
      log(`${a.username} asked for a refund of ${e.collection} (waits for the seller)`);
    },

    async report(e) {
      const a = actor(e.person);
      const collectionId = collectionIds[e.collection];
      if (!collectionId) throw new Error(`demo story: ${e.collection} is reported before it exists`);
      await as(a, sl('/collection/report'), { collection_id: collectionId, reason: e.reason, details: e.details });
      log(`${a.username} reported ${e.collection} (${e.reason})`);
    },

    // Discount codes and licence keys (product §28).
    async 'discount-code'(e) {
      const c = COLLECTIONS.find((x) => x.key === e.collection)!;
      const a = actor(c.seller);
      await as(a, sl('/discount/create'), {
        code: e.code,
        kind: 'percent',
        value: e.percent,
        collection_id: collectionIds[e.collection],
        max_uses: e.maxUses,
      });
      log(`${a.username} created the discount code ${e.code} (${e.percent}% off ${e.collection})`);
    },

    async 'licence-keys'(e) {
      const c = COLLECTIONS.find((x) => x.key === e.collection)!;
      const a = actor(c.seller);
      await as(a, sl('/licence/settings'), {
        collection_id: collectionIds[e.collection],
        enabled: true,
        max_activations: e.maxActivations,
      });
      log(`${a.username} turned licence keys on for ${e.collection}`);
    },

    async 'cash-out'(e) {
      const a = actor(e.person);
      const { bill } = await as<{ bill: { id: string } }>(a, uc('/withdraw/create'), {
        user_id: a.id,
        currency: e.currency,
        network: e.network,
        amount: e.points,
        address: e.address,
        memo: '',
      });
      await as(a, uc('/withdraw/confirm'), { bill_id: bill.id, password });
      // The payout job (a worker in `npm start`): claim and send until this bill is final.
      const withdrawals = app.ctx.services.withdrawals;
      for (let i = 0; i < 20; i++) {
        clock.advance(MINUTE);
        for (const claimed of await withdrawals.claimPayouts(1)) await withdrawals.processPayout(claimed);
        const { bill: now } = await as<{ bill: { status: string } }>(a, uc('/withdraw/bill/detail'), {
          user_id: a.id,
          bill_id: bill.id,
        });
        if (now.status === WithdrawStatus.Success) {
          counts.cashOuts++;
          log(`${a.username} cashed out ${e.points} points (${e.currency})`);
          return;
        }
        if (now.status !== WithdrawStatus.Processing) throw new Error(`cash-out of ${a.username} ended ${now.status}`);
      }
      throw new Error(`cash-out of ${a.username} was not paid`);
    },
  };

  // Reviews and one seller reply (product §29), played between the story's events by day.
  const playReview = async (r: DemoReview): Promise<void> => {
    const a = actor(r.person);
    const collectionId = collectionIds[r.collection];
    if (!collectionId) throw new Error(`demo story: ${r.collection} is reviewed before it exists`);
    const { review } = await as<{ review: { id: string } }>(a, sl('/review/upsert'), {
      collection_id: collectionId,
      rating: r.rating,
      text: r.text,
    });
    log(`${a.username} rated ${r.collection} ${r.rating}/5`);
    if (r.reply) {
      const seller = actor(COLLECTIONS.find((c) => c.key === r.collection)!.seller);
      clock.advance(0.3 * DAY);
      await as(seller, sl('/review/reply'), { review_id: review.id, text: r.reply });
      log(`${seller.username} replied to the review`);
    }
  };
  const steps = [
    ...TIMELINE.map((event) => ({ day: event.day, run: () => (handlers[event.kind] as (e: DemoEvent) => Promise<void>)(event) })),
    ...DEMO_REVIEWS.map((r) => ({ day: r.day, run: () => playReview(r) })),
  ].sort((x, y) => x.day - y.day);

  clock.set(start);
  for (const step of steps) {
    clock.set(Math.max(clock.now(), start + step.day * DAY + Math.floor(jitter() * 20 * MINUTE)));
    // The clearance job (a worker in `npm start`): sales older than EARNINGS_HOLD_DAYS become
    // available as the story's days pass; the last week's sales stay pending (product.md "Clearance").
    await app.ctx.services.clearance.clearDue();
    await step.run();
  }

  const result: SeededUser[] = [];
  for (const a of actors.values()) {
    const { asset } = await as<{ asset: { available: string; pending?: string } }>(a, uc('/assets'), { user_id: a.id });
    const mine = COLLECTIONS.filter((c) => c.seller === a.person.key);
    result.push({
      id: a.id,
      username: a.username,
      email: a.email,
      nickname: a.person.nickname,
      role: a.person.role,
      available: asset.available,
      pending: asset.pending ?? '0.00',
      published: mine.filter((c) => !c.draft).length,
      drafts: mine.filter((c) => c.draft).length,
      bought: bought.get(a.person.key) ?? 0,
    });
    // Nobody keeps the seed's sessions.
    await api.call(uc('/logout'), {}, a.token, a.ip);
  }

  return {
    password: DEMO_PASSWORD,
    users: result,
    collections: { published: counts.published, drafts: counts.drafts, files: counts.files, bytes: counts.bytes },
    topUps: { paid: counts.paid, expired: counts.expired },
    purchases: counts.purchases,
    cashOuts: counts.cashOuts,
    collectionIds,
  };
}

/** The printed report: accounts, counts and the ledger check. */
export function formatSummary(s: SeedSummary, ledger: LedgerVerifyReport, target: string): string {
  const pad = (v: string, n: number) => v.padEnd(n);
  const lines = [
    `Demo data written to ${target}.`,
    '',
    `Accounts (password for all: ${s.password}; log in with the username or the email):`,
    `  ${pad('username', 16)} ${pad('email', 30)} ${pad('role', 7)} ${'balance'.padStart(9)} ${'pending'.padStart(9)}  collections`,
    ...s.users.map(
      (u) =>
        `  ${pad(u.username, 16)} ${pad(u.email, 30)} ${pad(u.role, 7)} ${u.available.padStart(9)} ${u.pending.padStart(9)}  ${
          u.role === 'seller' ? `${u.published} published, ${u.drafts} draft(s), ` : ''
        }${u.bought} bought`,
    ),
    '',
    `Collections: ${s.collections.published} published, ${s.collections.drafts} drafts, ${s.collections.files} files (${(s.collections.bytes / 1024 / 1024).toFixed(1)} MB)`,
    `Top-ups: ${s.topUps.paid} paid through the sandbox, ${s.topUps.expired} expired; purchases: ${s.purchases}; cash-outs: ${s.cashOuts}`,
    `Ledger: ${ledger.counts.transactions} transactions, ${ledger.counts.entries} entries, ${ledger.ok ? 'verified (every transaction sums to zero, balances match their entries, none negative)' : `${ledger.violations.length} VIOLATION(S)`}`,
  ];
  const platform = Object.entries(ledger.platformBalances).map(([kind, v]) => `${kind} ${minorToPoints(v)}`);
  if (platform.length) lines.push(`Platform accounts (points): ${platform.join(', ')}`);
  for (const v of ledger.violations) lines.push(`  ${v}`);
  return lines.join('\n');
}

function describeTarget(url: string | undefined, dataDir: string): string {
  if (!url) return `PGlite in ${dataDir}/db`;
  if (url === 'memory://') return 'PGlite in memory (gone when this process exits)';
  try {
    const u = new URL(url);
    return `PostgreSQL ${u.host}${u.pathname}`;
  } catch {
    return 'PostgreSQL';
  }
}

const USAGE = `Usage: npm run demo:seed [-- --force]

Fills the database and storage that npm start uses (DATA_DIR, DATABASE_URL, STORAGE...) with demo
sellers, collections, buyers and purchases through Coffer's own API. Needs PAYMENTS=sandbox.
Refuses when NODE_ENV=production, and when the database already has users unless --force is given.
Stop the server first: the seed must be the only process using the database.`;

/** CLI entry. @returns the process exit code (0 done, 1 failed or ledger violation, 2 refused) */
export async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const unknown = argv.filter((a) => a !== '--force' && a !== '--help' && a !== '-h');
  if (argv.includes('--help') || argv.includes('-h') || unknown.length) {
    if (unknown.length) console.error(`Unknown argument(s): ${unknown.join(' ')}\n`);
    console.log(USAGE);
    return unknown.length ? 2 : 0;
  }
  // Before the configuration, which refuses production without PAYMENTS: this refusal says more.
  if (env.NODE_ENV === 'production') {
    console.error(refusal({ nodeEnv: 'production', payments: 'sandbox', userCount: 0, force: true }));
    return 2;
  }
  const config = commandConfig({ ...env, WORKERS: 'false', SERVE_WEB: 'false', LOG_LEVEL: env.LOG_LEVEL || 'warn' });
  if (!config) return 2;
  const early = refusal({ nodeEnv: config.NODE_ENV, payments: config.PAYMENTS, userCount: 0, force: true });
  if (early) {
    console.error(early);
    return 2;
  }
  const clock = new ManualClock(Date.now());
  const app = await buildApp({ config, clock, logger: false });
  try {
    await app.ready();
    const why = refusal({
      nodeEnv: config.NODE_ENV,
      payments: config.PAYMENTS,
      userCount: await countUsers(app),
      force: argv.includes('--force'),
    });
    if (why) {
      console.error(why);
      return 2;
    }
    const target = describeTarget(config.DATABASE_URL, config.dataDir);
    console.log(`Seeding demo data into ${target}...`);
    const summary = await seedDemo(app, { clock, log: (line) => console.log(`  ${line}`) });
    const ledger = await verifyLedger(app.ctx.database.db);
    console.log(`\n${formatSummary(summary, ledger, target)}`);
    if (!ledger.ok) return 1;
    console.log(`\nNext: npm start, then open ${config.publicUrl}`);
    return 0;
  } catch (err) {
    console.error(`demo:seed failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  } finally {
    await app.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
