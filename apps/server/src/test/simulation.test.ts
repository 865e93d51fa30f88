/**
 * Whole-system simulation (issue 38; TigerBeetle's VOPR is the model). For each seed, a small world
 * is built through the real app (sellers with published collections at random prices, buyers topped
 * up through the sandbox provider) and random operations run against it: buy, pay (always with the
 * password step-up and the amount the buyer confirmed, now and then a wrong one), seller refunds,
 * buyer refund requests, price changes, the clock moving minutes to days, the clearance job, top-ups,
 * cash-outs and the payout worker's tick. Faults: the same call sent twice at once, an answer lost
 * (sent, dropped, sent again), and a transaction cut between two statements (simulation.ts).
 *
 * After every step: `verifyLedger` (balance and reconciliation) must be ok, and the model this file
 * keeps must agree with the database: every user's available, pending and frozen balance, no balance
 * below 0, points conserved (users + platform = 0), every order's status and amount (charged at most
 * once, for the amount the buyer confirmed), every cash-out's status. Each answer must be the one the
 * model predicts (with a cut transaction: that answer or an internal error envelope, nothing half done).
 *
 * Races: a seller's refund against the clearance job on a sale whose hold is over (either may lock
 * the order first: the database says which did, and answers and balances must fit it), and a pay
 * against a price change (paid at the confirmed amount, or PRICE_CHANGED; never another amount).
 *
 * Seeds: SIM_SEEDS (default 200 on PostgreSQL, 12 on PGlite) from SIM_FIRST_SEED (default 1), SIM_OPS
 * operations each (default 20 on PostgreSQL, 100 on PGlite); SIM_SEED=<n> replays that seed alone
 * (exactly on PGlite; on PostgreSQL a race or a repeated call may interleave otherwise). A failing
 * seed prints SIM_SEED=<n> and its operation log; SIM_VERBOSE=1 prints every seed's log and timings,
 * SIM_KEEP_DB=1 keeps the PostgreSQL scratch databases. On PostgreSQL the run has scratch databases
 * of its own (reconciliation and payout passes see only their rows): a new world, app and database,
 * every SIM_SEEDS_PER_WORLD seeds (default 50), so a check's cost does not grow with the run.
 */
import { pointsToMinor } from '@coffer/contract';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishedCollection } from '../modules/collections/collections.fixtures';
import { verifyLedger } from '../modules/ledger/ledger.verify';
import { createTestApp, createUser, md5, onPostgres, PASSWORD, type TestApp, type TestUser } from './harness';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database';
import { installFaults, Rng, type FaultInjector } from './simulation';

const SEED_COUNT = Number(process.env.SIM_SEEDS ?? (onPostgres ? 200 : 12));
/** SIM_FIRST_SEED (default 1): where a run of SIM_SEEDS seeds starts, to explore further seeds. */
const FIRST_SEED = Number(process.env.SIM_FIRST_SEED ?? 1);
const SEEDS = process.env.SIM_SEED
  ? [Number(process.env.SIM_SEED)]
  : Array.from({ length: SEED_COUNT }, (_, i) => FIRST_SEED + i);
const OPS = Number(process.env.SIM_OPS ?? (onPostgres ? 20 : 100));

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const FEE_BPS = 1000;
const HOLD_MS = 7 * DAY; // EARNINGS_HOLD_DAYS default
const QUOTE_TTL_MS = 1800_000; // ORDER_QUOTE_TTL_SECONDS
const REFUND_WINDOW_MS = 14 * DAY;
const WITHDRAW_WINDOW_MS = 900_000;
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const EVM_DEAD = '0x000000000000000000000000000000000000dEaD';

let t: TestApp;
let scratch: ScratchDatabase | undefined;
let faults: FaultInjector;

/**
 * Seeds per world (SIM_SEEDS_PER_WORLD, default 50): after that many seeds the app and its database
 * are closed and a new world opens (on PostgreSQL a new scratch database). Each check reads every
 * ledger row, so in one world of 200 seeds the checks grew with the seeds before them (measured on
 * 2026-11-29, PostgreSQL: 63 s for seeds 2-51, 103 s for seeds 152-201).
 */
const SEEDS_PER_WORLD = Math.max(1, Number(process.env.SIM_SEEDS_PER_WORLD ?? 50));

/** A new world: a scratch database on PostgreSQL (PGlite: in memory), the app on it, the fault injector. */
async function openWorld() {
  scratch = await createScratchDatabase('coffer_sim');
  if (scratch) {
    // A scratch database thrown away after the run: commits need not wait for the disk (the
    // simulation checks logic, not durability), which keeps 200 seeds within minutes.
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    await admin.query(`alter database ${new URL(scratch.url).pathname.slice(1)} set synchronous_commit = off`);
    await admin.end();
  }
  t = await createTestApp({
    PLATFORM_FEE_BPS: String(FEE_BPS),
    // The clock moves days per seed: sessions must outlive a seed.
    SESSION_TTL_HOURS: String(24 * 365),
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  faults = installFaults(t.app.ctx.database.db);
  await warmUp();
}

/** Closes the world: the fault injector, the app, and its scratch database (unless SIM_KEEP_DB=1). */
async function closeWorld() {
  faults?.uninstall();
  await t?.close();
  // SIM_KEEP_DB=1 keeps the scratch database for a look afterwards (its name is printed).
  if (process.env.SIM_KEEP_DB && scratch) console.log(`SIM_KEEP_DB: ${scratch.url}`);
  else await scratch?.drop();
}

beforeAll(openWorld, 120_000);
afterAll(closeWorld);

// ---- the model ----

interface MUser {
  name: string;
  u: TestUser;
  available: bigint;
  pending: bigint;
  frozen: bigint;
}
interface MColl {
  name: string;
  id: string;
  owner: MUser;
  price: number;
}
type OrderState = 'pending' | 'paid' | 'refunded';
interface MOrder {
  name: string;
  id: string;
  buyer: MUser;
  coll: MColl;
  amount: number;
  listPrice: number;
  quotedAt: number;
  status: OrderState;
  paidAt: number | null;
  clearsAt: number | null;
  cleared: boolean;
  charges: number;
}
type BillState = 'pending' | 'processing' | 'success' | 'refunded';
interface MBill {
  name: string;
  id: string;
  user: MUser;
  amount: bigint;
  createdAt: number;
  failing: boolean;
  status: BillState;
}

/** One answer: the envelope's data, or its reason. */
type Outcome = { ok: true; data: any } | { ok: false; reason: string; status: number; msg: string };
type Fault = 'none' | 'dup' | 'lost' | 'cut';
/** What the model predicts: success (with a description to compare) or an error reason. */
type Prediction = { ok: true; what: string } | { ok: false; reason: string };

class SimFailure extends Error {}

const fee = (amount: number) => (BigInt(amount) * 100n * BigInt(FEE_BPS)) / 10_000n;
const sellerGets = (amount: number) => BigInt(amount) * 100n - fee(amount);
const isFault = (e: unknown): boolean => {
  for (let x: unknown = e; x; x = (x as { cause?: unknown }).cause)
    if (String((x as Error).message ?? x).includes('SIM_FAULT')) return true;
  return false;
};
const inList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );

type Row = Record<string, unknown>;
async function rows(query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await t.app.ctx.database.db.execute(query)) as unknown as { rows: Row[] }).rows;
}

class Sim {
  readonly rng: Rng;
  readonly log: string[] = [];
  users: MUser[] = [];
  colls: MColl[] = [];
  orders: MOrder[] = [];
  bills: MBill[] = [];
  /** Top-up bills created but not paid (a cut sandbox payment), by id. */
  unpaidTopUps: { id: string; user: MUser; points: number }[] = [];
  step = 0;
  /** The clock when the seed began: the log shows times relative to it, so a replay logs the same lines. */
  readonly t0 = t.clock.now();

  constructor(readonly seed: number) {
    this.rng = new Rng(seed);
  }

  fail(msg: string): never {
    throw new SimFailure(msg);
  }

  note(line: string) {
    this.log.push(`#${this.step} ${line}`);
  }

  now() {
    return t.clock.now();
  }

  /** A time as seconds since the seed began (`t+<s>s`). */
  rel(ms: number) {
    return `t+${(ms - this.t0) / 1000}s`;
  }

  async call(url: string, body: unknown, token: string): Promise<Outcome> {
    const res = await t.call(url, body, token);
    const b = res.body as { code?: unknown; msg?: unknown; reason?: unknown; data?: unknown };
    if (typeof b?.code !== 'number' || typeof b.msg !== 'string')
      this.fail(`${url}: not an envelope (HTTP ${res.status}): ${JSON.stringify(b)}`);
    if (b.code === 10000) {
      if (res.status !== 200) this.fail(`${url}: success envelope with HTTP ${res.status}`);
      return { ok: true, data: b.data };
    }
    if (res.status === 200) this.fail(`${url}: error envelope with HTTP 200: ${JSON.stringify(b)}`);
    return { ok: false, reason: String(b.reason ?? b.code), status: res.status, msg: b.msg };
  }

  /** A job run in process (no HTTP): its result, or INTERNAL when it threw. */
  async job<T>(fn: () => Promise<T>): Promise<Outcome> {
    try {
      return { ok: true, data: await fn() };
    } catch (err) {
      if (!isFault(err)) this.fail(`job threw without a fault: ${String(err)}`);
      return { ok: false, reason: 'INTERNAL', status: 500, msg: String(err) };
    }
  }

  /** Picks the fault of a step: mostly none. */
  pickFault(): Fault {
    const r = this.rng.float();
    if (r < 0.07) return 'dup';
    if (r < 0.14) return 'lost';
    if (r < 0.24) return 'cut';
    return 'none';
  }

  /**
   * Sends `send` under `fault`; @returns the answers that count (both of a repeat, the second of a
   * lost one) and whether a cut fired.
   */
  async send(fault: Fault, send: () => Promise<Outcome>): Promise<{ outcomes: Outcome[]; fired: boolean; how: string }> {
    switch (fault) {
      case 'none':
        return { outcomes: [await send()], fired: false, how: '' };
      case 'dup':
        return { outcomes: await Promise.all([send(), send()]), fired: false, how: ' [sent twice at once]' };
      case 'lost': {
        const first = await send();
        // The answer is dropped, but it must still have been a proper one: no fault was armed.
        if (!first.ok && first.reason === 'INTERNAL') this.fail(`the first of a repeated call failed: ${first.msg}`);
        return { outcomes: [await send()], fired: false, how: ` [answer lost (${first.ok ? 'ok' : first.reason}), sent again]` };
      }
      case 'cut': {
        // Background work (receipt mails) settles first, so the fault lands in this operation.
        await t.app.ctx.services.mailQueue.settled();
        await t.app.ctx.services.auth.mailSettled();
        const k = this.rng.int(1, 9);
        const mode = this.rng.chance(0.5) ? 'before' : 'after';
        faults.arm(k, mode);
        const out = await send();
        const armed = faults.disarm();
        return {
          outcomes: [out],
          fired: Boolean(armed?.fired),
          how: armed?.fired
            ? ` [transaction cut at statement ${k} (${mode})]`
            : ` [cut at statement ${k} armed, not reached (${armed?.count ?? 0} statements)]`,
        };
      }
    }
  }

  /** Compares the answers with the prediction (a fired cut also allows an internal error). */
  expectOutcomes(label: string, p: Prediction, outcomes: Outcome[], fired: boolean, describe: (d: any) => string) {
    for (const o of outcomes) {
      if (o.ok && p.ok) {
        const what = describe(o.data);
        if (what !== p.what) this.fail(`${label}: expected ${p.what}, got ${what}`);
      } else if (!o.ok && !p.ok && o.reason === p.reason) continue;
      else if (!o.ok && fired && o.reason === 'INTERNAL') continue;
      else if (o.ok && !p.ok) this.fail(`${label}: expected ${p.reason}, got success ${describe(o.data)}`);
      else if (!o.ok) this.fail(`${label}: expected ${p.ok ? p.what : p.reason}, got ${o.reason} (HTTP ${o.status}: ${o.msg})`);
    }
  }

  summary(outcomes: Outcome[], describe: (d: any) => string) {
    return outcomes.map((o) => (o.ok ? describe(o.data) : `${o.reason}`)).join(' | ');
  }

  // ---- the world ----

  async build() {
    const sellers = this.rng.int(2, 3);
    const buyers = this.rng.int(2, 4);
    for (let i = 0; i < sellers + buyers; i++) {
      const u = await createUser(t);
      this.users.push({ name: i < sellers ? `seller${i}` : `buyer${i - sellers}`, u, available: 0n, pending: 0n, frozen: 0n });
    }
    for (let i = 0; i < sellers; i++) {
      const owner = this.users[i]!;
      for (let j = this.rng.int(1, 2); j > 0; j--) {
        const price = this.rng.chance(0.1) ? 0 : this.rng.int(1, 60);
        const c = await publishedCollection(t, owner.u, price, `Sim ${this.seed} ${owner.name}`);
        this.colls.push({ name: `c${this.colls.length}`, id: c.id, owner, price });
      }
    }
    for (const user of this.users.slice(sellers)) await this.topUp(user, this.rng.int(200, 1500), 'none');
    this.note(
      `world: ${this.users.map((u) => u.name).join(', ')}; ${this.colls.map((c) => `${c.name}(${c.owner.name}, ${c.price})`).join(', ')}`,
    );
  }

  userOf(name: string) {
    return this.users.find((u) => u.name === name)!;
  }

  orderOf(buyer: MUser, coll: MColl) {
    return this.orders.find((o) => o.buyer === buyer && o.coll === coll);
  }

  // ---- operations ----

  predictBuy(buyer: MUser, coll: MColl, o: MOrder | undefined): Prediction {
    const now = this.now();
    if (o && o.status !== 'pending') return { ok: true, what: `${o.status} ${o.amount}` };
    if (buyer.available < BigInt(coll.price) * 100n) return { ok: false, reason: 'INSUFFICIENT_BALANCE' };
    if (o && now - o.quotedAt <= QUOTE_TTL_MS && o.listPrice === coll.price && o.amount === coll.price) {
      return { ok: true, what: `pending ${o.amount} quoted ${this.rel(o.quotedAt)}` };
    }
    return { ok: true, what: `pending ${coll.price} quoted ${this.rel(now)}` };
  }

  async buy(buyer: MUser, coll: MColl, fault: Fault): Promise<MOrder | undefined> {
    const before = this.orderOf(buyer, coll);
    const p = this.predictBuy(buyer, coll, before);
    const r = await this.send(fault, () => this.call('/sl/v1/collection/buy', { collection_id: coll.id }, buyer.u.token));
    const describe = (d: any) =>
      d.status === 'OrderStatusPending'
        ? `pending ${d.amount} quoted ${this.rel(Number(d.expires_at) - QUOTE_TTL_MS)}`
        : `${String(d.status).replace('OrderStatus', '').toLowerCase()} ${d.amount}`;
    this.note(`buy ${buyer.name} ${coll.name} (price ${coll.price}) -> ${this.summary(r.outcomes, describe)}${r.how}`);
    this.expectOutcomes('buy', p, r.outcomes, r.fired, describe);
    const ids = new Set(r.outcomes.filter((o) => o.ok).map((o) => (o as { data: any }).data.id as string));
    if (ids.size > 1) this.fail(`buy: one buyer and collection got ${ids.size} orders`);
    const last = [...r.outcomes].reverse().find((o) => o.ok) as { data: any } | undefined;
    if (!last) return before;
    const d = last.data;
    if (before && before.id !== d.id) this.fail(`buy: answered order ${d.id}, the pair's order is ${before.id}`);
    const o: MOrder =
      before ??
      this.add(this.orders, {
        name: `o${this.orders.length}`,
        id: d.id,
        buyer,
        coll,
        amount: d.amount,
        listPrice: d.list_price,
        quotedAt: 0,
        status: 'pending',
        paidAt: null,
        clearsAt: null,
        cleared: false,
        charges: 0,
      });
    if (o.status === 'pending') {
      o.amount = d.amount;
      o.listPrice = d.list_price;
      o.quotedAt = Number(d.expires_at) - QUOTE_TTL_MS;
    }
    return o;
  }

  add<T>(list: T[], item: T): T {
    list.push(item);
    return item;
  }

  predictPay(o: MOrder, confirmed: number): Prediction {
    const now = this.now();
    if (o.status === 'paid')
      return confirmed !== o.amount ? { ok: false, reason: 'PRICE_CHANGED' } : { ok: true, what: `paid ${o.amount}` };
    if (o.buyer.available < BigInt(o.amount) * 100n) return { ok: false, reason: 'INSUFFICIENT_BALANCE' };
    if (o.status === 'refunded') return { ok: false, reason: 'CONFLICT' };
    if (now - o.quotedAt > QUOTE_TTL_MS) return { ok: false, reason: 'ORDER_EXPIRED' };
    if (o.coll.price !== o.listPrice || confirmed !== o.amount) return { ok: false, reason: 'PRICE_CHANGED' };
    return { ok: true, what: `paid ${o.amount}` };
  }

  async pay(o: MOrder, confirmed: number, fault: Fault) {
    const p = this.predictPay(o, confirmed);
    const r = await this.send(fault, () =>
      this.call('/api/uc/v1/account/order/pay', { order_id: o.id, password: md5(PASSWORD), amount: confirmed }, o.buyer.u.token),
    );
    const describe = (d: any) => `${String(d.status).replace('OrderStatus', '').toLowerCase()} ${d.amount}`;
    this.note(
      `pay ${o.buyer.name} ${o.name} (${o.status} ${o.amount}, confirms ${confirmed}) -> ${this.summary(r.outcomes, describe)}${r.how}`,
    );
    this.expectOutcomes('pay', p, r.outcomes, r.fired, describe);
    for (const out of r.outcomes) if (out.ok) await this.applyPaid(o, out.data, confirmed);
  }

  /** A successful pay answer `d` for the amount `confirmed`: checked, and applied once. */
  async applyPaid(o: MOrder, d: any, confirmed: number) {
    // The amount charged is the amount the buyer confirmed, whatever the order says.
    if (d.amount !== confirmed) this.fail(`pay: confirmed ${confirmed}, the paid order says ${d.amount}`);
    if (d.status !== 'OrderStatusPaid') this.fail(`pay: answered ${d.status}`);
    if (o.status !== 'pending') return;
    o.status = 'paid';
    o.charges++;
    o.paidAt = Number(d.paid_at);
    o.clearsAt = d.clears_at === null ? null : Number(d.clears_at);
    const gets = sellerGets(o.amount);
    const wantClears = gets > 0n ? o.paidAt + HOLD_MS : null;
    if (o.clearsAt !== wantClears) this.fail(`pay: clears_at ${o.clearsAt}, expected ${wantClears}`);
    o.buyer.available -= BigInt(o.amount) * 100n;
    if (o.clearsAt !== null) o.coll.owner.pending += gets;
    else o.coll.owner.available += gets;
    const [debit] = await rows(
      sql`select coalesce(sum(e.amount), 0)::text as total from ledger_entries e
          join ledger_transactions x on x.id = e.transaction_id join ledger_accounts a on a.id = e.account_id
          where x.idempotency_key = ${`purchase:${o.id}`} and a.user_id = ${o.buyer.u.id} and a.kind = 'available'`,
    );
    if (BigInt(String(debit!.total)) !== -BigInt(confirmed) * 100n) {
      this.fail(`pay: the buyer confirmed ${confirmed} points, the ledger debited ${String(debit!.total)} minor units`);
    }
  }

  /**
   * A race: the seller refunds a sale whose hold is over while the clearance job runs. Either the
   * refund locks the order first (its proceeds come out of pending; the job skips it) or the job
   * clears it first (the refund then takes them from available): both are right, the database says
   * which happened, and the answers and balances must fit it.
   */
  async raceRefundClear() {
    const held = this.orders.filter((o) => o.status === 'paid' && o.clearsAt !== null && !o.cleared);
    if (!held.length) return;
    const target = this.rng.pick(held);
    if (target.clearsAt! > this.now()) this.advance(target.clearsAt! - this.now());
    const now = this.now();
    const due = held.filter((o) => o.clearsAt! <= now);
    const seller = target.coll.owner;
    const [refund, job] = await Promise.all([
      this.call('/api/uc/v1/account/order/refund', { order_id: target.id, reason: 'Race' }, seller.u.token),
      this.job(() => t.app.ctx.services.clearance.clearDue()),
    ]);
    const found = await rows(
      sql`select id, cleared_at is not null as cleared from orders where id in (${inList(due.map((o) => o.id))})`,
    );
    const cleared = new Set(found.filter((r) => Boolean(r.cleared)).map((r) => String(r.id)));
    this.note(
      `race: refund ${seller.name} ${target.name} (due) against the clearance job (${due.length} due) -> refund ${refund.ok ? String(refund.data.status).replace('OrderStatus', '').toLowerCase() : refund.reason}, job ${job.ok ? `cleared ${String(job.data)}` : job.reason}; ${target.name} ${cleared.has(target.id) ? 'cleared first' : 'refunded first'}`,
    );
    if (!refund.ok) this.fail(`race: the refund answered ${refund.reason} (${refund.msg})`);
    if (!job.ok) this.fail('race: the clearance job failed');
    if (Number(job.data) !== cleared.size)
      this.fail(`race: the job says it cleared ${String(job.data)}, the database shows ${cleared.size}`);
    for (const o of due) {
      if (o !== target && !cleared.has(o.id)) this.fail(`race: ${o.name} was due and not cleared`);
      if (!cleared.has(o.id)) continue;
      o.cleared = true;
      const gets = sellerGets(o.amount);
      o.coll.owner.pending -= gets;
      o.coll.owner.available += gets;
    }
    this.applyRefund(target);
  }

  /**
   * A race: the buyer pays while the seller changes the price. The pay goes through at the amount
   * the buyer confirmed (it locked first) or answers PRICE_CHANGED; it never charges another amount.
   */
  async racePayPrice() {
    const buyer = this.rng.pick(this.users);
    const coll = this.rng.pick(this.colls.filter((c) => c.owner !== buyer));
    const o = await this.buy(buyer, coll, 'none');
    if (!o || o.status !== 'pending' || this.predictPay(o, o.amount).ok === false) return;
    const price = this.rng.int(0, 60);
    const confirmed = o.amount;
    // The update starts a little later now and then, so the pay (which checks the password first)
    // sometimes locks the order before the price moves.
    const delay = this.rng.pick([0, 0, 10, 25, 50]);
    const [pay, update] = await Promise.all([
      this.call('/api/uc/v1/account/order/pay', { order_id: o.id, password: md5(PASSWORD), amount: confirmed }, buyer.u.token),
      new Promise((resolve) => setTimeout(resolve, delay)).then(() =>
        this.call('/sl/v1/collection/update', { collection_id: coll.id, amount: price }, coll.owner.u.token),
      ),
    ]);
    this.note(
      `race: pay ${buyer.name} ${o.name} (confirms ${confirmed}) against price ${coll.name} ${coll.price} -> ${price} (${delay} ms later): pay ${pay.ok ? `${String(pay.data.status).replace('OrderStatus', '').toLowerCase()} ${String(pay.data.amount)}` : pay.reason}, update ${update.ok ? 'ok' : update.reason}`,
    );
    if (!update.ok) this.fail(`race: collection/update answered ${update.reason} (${update.msg})`);
    coll.price = price;
    if (pay.ok) await this.applyPaid(o, pay.data, confirmed);
    else if (pay.reason !== 'PRICE_CHANGED' || price === confirmed) this.fail(`race: pay answered ${pay.reason} (${pay.msg})`);
  }

  /** Whether the seller can give back the sale of `o` now, and from which account. */
  refundSource(o: MOrder): { from: 'pending' | 'available'; covers: boolean } {
    const from = o.clearsAt !== null && !o.cleared ? 'pending' : 'available';
    const gets = sellerGets(o.amount);
    return { from, covers: gets <= 0n || o.coll.owner[from] >= gets };
  }

  applyRefund(o: MOrder) {
    const { from } = this.refundSource(o);
    o.buyer.available += BigInt(o.amount) * 100n;
    o.coll.owner[from] -= sellerGets(o.amount);
    o.status = 'refunded';
  }

  async sellerRefund(o: MOrder, fault: Fault) {
    let p: Prediction;
    if (o.status === 'pending') p = { ok: false, reason: 'CONFLICT' };
    else if (o.status === 'refunded') p = { ok: true, what: 'refunded' };
    else p = this.refundSource(o).covers ? { ok: true, what: 'refunded' } : { ok: false, reason: 'INSUFFICIENT_BALANCE' };
    const seller = o.coll.owner;
    const r = await this.send(fault, () =>
      this.call('/api/uc/v1/account/order/refund', { order_id: o.id, reason: 'Simulated' }, seller.u.token),
    );
    const describe = (d: any) => String(d.status).replace('OrderStatus', '').toLowerCase();
    this.note(`refund ${seller.name} ${o.name} (${o.status} ${o.amount}) -> ${this.summary(r.outcomes, describe)}${r.how}`);
    this.expectOutcomes('refund', p, r.outcomes, r.fired, describe);
    if (r.outcomes.some((x) => x.ok && x.data.status === 'OrderStatusRefunded') && o.status === 'paid') this.applyRefund(o);
  }

  async refundRequest(o: MOrder, fault: Fault) {
    let p: Prediction;
    if (o.status === 'pending') p = { ok: false, reason: 'CONFLICT' };
    else if (o.status === 'refunded') p = { ok: true, what: 'refunded' };
    else {
      const inWindow = this.now() - o.paidAt! <= REFUND_WINDOW_MS;
      p = { ok: true, what: inWindow && this.refundSource(o).covers ? 'refunded' : 'paid' };
    }
    const r = await this.send(fault, () =>
      this.call('/api/uc/v1/account/order/refund/request', { order_id: o.id, reason: 'Not what I expected' }, o.buyer.u.token),
    );
    const describe = (d: any) => String(d.status).replace('OrderStatus', '').toLowerCase();
    this.note(
      `refund/request ${o.buyer.name} ${o.name} (${o.status} ${o.amount}) -> ${this.summary(r.outcomes, describe)}${r.how}`,
    );
    this.expectOutcomes('refund/request', p, r.outcomes, r.fired, describe);
    if (r.outcomes.some((x) => x.ok && x.data.status === 'OrderStatusRefunded') && o.status === 'paid') this.applyRefund(o);
  }

  async price(c: MColl, price: number, fault: Fault) {
    const r = await this.send(fault, () =>
      this.call('/sl/v1/collection/update', { collection_id: c.id, amount: price }, c.owner.u.token),
    );
    const describe = (d: any) => `price ${d.amount}`;
    this.note(`price ${c.owner.name} ${c.name} ${c.price} -> ${price}: ${this.summary(r.outcomes, describe)}${r.how}`);
    this.expectOutcomes('collection/update', { ok: true, what: `price ${price}` }, r.outcomes, r.fired, describe);
    if (r.outcomes.some((x) => x.ok)) c.price = price;
  }

  async clear(fault: Fault) {
    const now = this.now();
    const due = this.orders.filter((o) => o.status === 'paid' && o.clearsAt !== null && !o.cleared && o.clearsAt <= now);
    const r = await this.send(fault, () => this.job(() => t.app.ctx.services.clearance.clearDue()));
    this.note(
      `clearance job (${due.length} due: ${due.map((o) => o.name).join(' ')}) -> ${this.summary(r.outcomes, (n) => `cleared ${n}`)}${r.how}`,
    );
    if (!r.outcomes.some((x) => x.ok)) {
      if (!r.fired) this.fail('clearance job failed without a fault');
      return;
    }
    if (!r.fired && fault !== 'lost') {
      const total = r.outcomes.reduce((s, x) => s + (x.ok ? Number(x.data) : 0), 0);
      if (total !== due.length) this.fail(`clearance job cleared ${total}, ${due.length} were due`);
    }
    for (const o of due) {
      o.cleared = true;
      const gets = sellerGets(o.amount);
      o.coll.owner.pending -= gets;
      o.coll.owner.available += gets;
    }
  }

  async topUp(user: MUser, points: number, fault: Fault, retry?: { id: string; points: number }) {
    let billId = retry?.id;
    if (!billId) {
      const created = await this.call(
        '/api/uc/v1/account/deposit',
        { amount: String(points), pay_currency: 'usdttrc20' },
        user.u.token,
      );
      if (!created.ok) this.fail(`deposit: ${created.reason} ${created.msg}`);
      billId = created.data.bill.id as string;
    }
    const id = billId;
    const r = await this.send(fault, () => this.call('/api/dev/sandbox/pay', { bill_id: id }, user.u.token));
    const describe = (d: any) =>
      `${String(d.bill.status).replace('DepositStatus', '').toLowerCase()} credited ${d.bill.credited_amount}`;
    this.note(
      `top-up ${user.name} ${points}${retry ? ' (paying a bill left unpaid)' : ''} -> ${this.summary(r.outcomes, describe)}${r.how}`,
    );
    this.expectOutcomes('sandbox/pay', { ok: true, what: `success credited ${points}.00` }, r.outcomes, r.fired, describe);
    const wasUnpaid = this.unpaidTopUps.findIndex((b) => b.id === id);
    if (r.outcomes.some((x) => x.ok)) {
      if (wasUnpaid >= 0) this.unpaidTopUps.splice(wasUnpaid, 1);
      user.available += BigInt(points) * 100n;
    } else if (wasUnpaid < 0) this.unpaidTopUps.push({ id, user, points });
  }

  async cashOut(user: MUser, fault: Fault, existing?: MBill) {
    let bill = existing;
    if (!bill) {
      // Mostly what the user can afford (when they can), sometimes more.
      const can = Number(user.available / 100n);
      const points = can >= 1000 && this.rng.chance(0.8) ? this.rng.int(1000, Math.min(can, 2500)) : this.rng.int(1000, 3000);
      const failing = this.rng.chance(0.2);
      const created = await this.call(
        '/api/uc/v1/account/withdraw/create',
        failing
          ? { user_id: user.u.id, currency: 'usdterc20', network: 'ETH', amount: String(points), address: EVM_DEAD, memo: '' }
          : { user_id: user.u.id, currency: 'usdttrc20', network: 'TRX', amount: String(points), address: TRON, memo: '' },
        user.u.token,
      );
      const enough = user.available >= BigInt(points) * 100n;
      if (!created.ok) {
        this.note(`cash-out ${user.name} ${points}${failing ? ' (to a failing address)' : ''}: create -> ${created.reason}`);
        if (created.reason !== 'INSUFFICIENT_BALANCE' || enough)
          this.fail(`withdraw/create: ${created.reason} ${created.msg} (available ${user.available})`);
        return;
      }
      if (!enough) this.fail(`withdraw/create accepted ${points} points with ${user.available} minor units available`);
      bill = this.add(this.bills, {
        name: `w${this.bills.length}`,
        id: created.data.bill.id,
        user,
        amount: pointsToMinor(created.data.bill.amount as string),
        createdAt: this.now(),
        failing,
        status: 'pending',
      });
    }
    const b = bill;
    let p: Prediction;
    if (b.status !== 'pending') p = { ok: true, what: b.status };
    else if (this.now() - b.createdAt >= WITHDRAW_WINDOW_MS) p = { ok: false, reason: 'CONFLICT' };
    else if (user.available < b.amount) p = { ok: false, reason: 'INSUFFICIENT_BALANCE' };
    else p = { ok: true, what: 'processing' };
    const r = await this.send(fault, () =>
      this.call('/api/uc/v1/account/withdraw/confirm', { bill_id: b.id, password: md5(PASSWORD) }, user.u.token),
    );
    const describe = (d: any) => String(d.bill.status).replace('WithdrawStatus', '').toLowerCase();
    this.note(
      `cash-out ${user.name} ${b.name} ${b.amount}${b.failing ? ' (to a failing address)' : ''}${existing ? ' (confirming again)' : ''} -> ${this.summary(r.outcomes, describe)}${r.how}`,
    );
    this.expectOutcomes('withdraw/confirm', p, r.outcomes, r.fired, describe);
    if (b.status === 'pending' && r.outcomes.some((x) => x.ok && x.data.bill.status === 'WithdrawStatusProcessing')) {
      b.status = 'processing';
      user.available -= b.amount;
      user.frozen += b.amount;
    }
  }

  /** Applies what the payout worker did to this seed's cash-outs (read from the database). */
  async observePayouts(label: string) {
    const live = this.bills.filter((b) => b.status === 'processing');
    if (!live.length) return;
    const found = await rows(sql`select id, status from withdraw_bills where id in (${inList(live.map((b) => b.id))})`);
    const status = new Map(found.map((r) => [String(r.id), String(r.status)]));
    const moved: string[] = [];
    for (const b of live) {
      const s = status.get(b.id);
      if (s === 'WithdrawStatusProcessing') continue;
      if (s === 'WithdrawStatusSuccess' && !b.failing) {
        b.status = 'success';
        b.user.frozen -= b.amount;
      } else if (s === 'WithdrawStatusRefunded' && b.failing) {
        b.status = 'refunded';
        b.user.frozen -= b.amount;
        b.user.available += b.amount;
      } else this.fail(`${label}: cash-out ${b.name}${b.failing ? ' (failing address)' : ''} went processing -> ${s}`);
      moved.push(`${b.name} ${b.status}`);
    }
    if (moved.length) this.note(`  ${label}: ${moved.join(', ')}`);
  }

  async payouts(fault: Fault) {
    const r = await this.send(fault, () => this.job(() => t.app.ctx.services.withdrawals.runPayouts(50)));
    this.note(
      `payout tick -> ${this.summary(r.outcomes, (s) => `claimed ${s.claimed}, succeeded ${s.succeeded}, refunded ${s.refunded}, failed to run ${s.failedToRun}`)}${r.how}`,
    );
    if (!r.fired && r.outcomes.some((x) => !x.ok)) this.fail('payout tick failed without a fault');
    await this.observePayouts('payouts');
  }

  advance(ms: number) {
    t.clock.advance(ms);
    this.note(
      `clock +${ms >= DAY ? `${(ms / DAY).toFixed(2)} d` : ms >= HOUR ? `${(ms / HOUR).toFixed(2)} h` : `${Math.round(ms / MINUTE)} min`}`,
    );
  }

  /** One random operation. */
  async randomStep() {
    const rng = this.rng;
    const op = rng.weighted({
      buy: 8,
      buyPay: 20,
      pay: 8,
      refund: 7,
      request: 7,
      price: 7,
      clock: 10,
      clear: 4,
      topUp: 8,
      cashOut: 7,
      payouts: 6,
      raceRefundClear: 2,
      racePayPrice: 2,
    });
    const fault = this.pickFault();
    switch (op) {
      case 'buy':
      case 'buyPay': {
        const buyer = rng.pick(this.users);
        const coll = rng.pick(this.colls.filter((c) => c.owner !== buyer));
        const o = await this.buy(buyer, coll, op === 'buy' ? fault : 'none');
        if (op === 'buyPay' && o)
          await this.pay(o, rng.chance(0.93) ? o.amount : Math.max(0, o.amount + rng.pick([1, -1, 5])), fault);
        return;
      }
      case 'pay': {
        if (!this.orders.length) return;
        const pending = this.orders.filter((o) => o.status === 'pending');
        const o = pending.length && rng.chance(0.7) ? rng.pick(pending) : rng.pick(this.orders);
        // Mostly the quote; sometimes the price shown now, or a wrong amount.
        const confirmed = rng.chance(0.8) ? o.amount : rng.chance(0.5) ? o.coll.price : Math.max(0, o.amount + rng.pick([1, -1]));
        return this.pay(o, confirmed, fault);
      }
      case 'refund':
      case 'request': {
        const paid = this.orders.filter((o) => o.status === 'paid');
        const pool = paid.length && rng.chance(0.8) ? paid : this.orders;
        if (!pool.length) return;
        const o = rng.pick(pool);
        return op === 'refund' ? this.sellerRefund(o, fault) : this.refundRequest(o, fault);
      }
      case 'price': {
        const c = rng.pick(this.colls);
        return this.price(c, rng.chance(0.1) ? 0 : rng.int(1, 60), fault);
      }
      case 'clock': {
        const scale = rng.weighted({ minutes: 5, hours: 3, days: 2 });
        this.advance(
          scale === 'minutes' ? rng.int(1, 59) * MINUTE : scale === 'hours' ? rng.int(1, 23) * HOUR : rng.int(DAY, 3 * DAY),
        );
        if (rng.chance(0.5)) await this.clear('none');
        return;
      }
      case 'clear':
        return this.clear(fault);
      case 'topUp': {
        if (this.unpaidTopUps.length && rng.chance(0.5)) {
          const b = this.unpaidTopUps[0]!;
          return this.topUp(b.user, b.points, fault, b);
        }
        return this.topUp(rng.pick(this.users), rng.int(100, 1500), fault);
      }
      case 'cashOut': {
        const open = this.bills.filter((b) => b.status === 'pending');
        if (open.length && rng.chance(0.3)) {
          const b = rng.pick(open);
          return this.cashOut(b.user, fault, b);
        }
        return this.cashOut(rng.pick(this.users), fault);
      }
      case 'payouts':
        return this.payouts(fault);
      case 'raceRefundClear':
        return this.raceRefundClear();
      case 'racePayPrice':
        return this.racePayPrice();
    }
  }

  /** The checks after every step (see the file comment). */
  async check() {
    const db = t.app.ctx.database.db;
    const ids = this.users.map((u) => u.u.id);
    const confirmed = this.bills.filter((b) => b.status !== 'pending');
    // Every read is issued at once: the app is idle between steps.
    const [report, balances, [users], foundOrders, foundBills] = await Promise.all([
      verifyLedger(db),
      rows(sql`select user_id, kind, balance::text as balance from ledger_accounts where user_id in (${inList(ids)})`),
      rows(sql`select coalesce(sum(balance), 0)::text as total from ledger_accounts where user_id is not null`),
      this.orders.length
        ? rows(
            sql`select id, status, amount, cleared_at is not null as cleared from orders where id in (${inList(this.orders.map((o) => o.id))})`,
          )
        : Promise.resolve([]),
      confirmed.length
        ? rows(sql`select id, status from withdraw_bills where id in (${inList(confirmed.map((b) => b.id))})`)
        : Promise.resolve([]),
    ]);
    if (!report.ok) this.fail(`verifyLedger: ${report.violations.join('\n  ')}`);
    for (const u of this.users) {
      for (const kind of ['available', 'pending', 'frozen'] as const) {
        const row = balances.find((r) => r.user_id === u.u.id && r.kind === kind);
        const got = BigInt(String(row?.balance ?? '0'));
        if (got < 0n) this.fail(`${u.name} ${kind} is below zero: ${got}`);
        if (got !== u[kind]) this.fail(`${u.name} ${kind}: the database has ${got}, the model ${u[kind]}`);
      }
    }
    const platform = Object.values(report.platformBalances).reduce((s, v) => s + v, 0n);
    if (BigInt(String(users!.total)) + platform !== 0n)
      this.fail(`points not conserved: users ${String(users!.total)} + platform ${platform} != 0`);
    const orderRows = new Map(foundOrders.map((r) => [String(r.id), r]));
    for (const o of this.orders) {
      const r = orderRows.get(o.id);
      const status = String(r?.status).replace('OrderStatus', '').toLowerCase();
      if (status !== o.status) this.fail(`${o.name}: the database says ${status}, the model ${o.status}`);
      if (o.charges > 1) this.fail(`${o.name} was charged ${o.charges} times`);
      if (o.status !== 'pending' && Number(r!.amount) !== o.amount)
        this.fail(`${o.name}: charged ${o.amount}, the order says ${String(r!.amount)}`);
      if (Boolean(r!.cleared) !== o.cleared)
        this.fail(`${o.name}: cleared in the database ${String(r!.cleared)}, in the model ${o.cleared}`);
    }
    const billRows = new Map(foundBills.map((r) => [String(r.id), String(r.status).replace('WithdrawStatus', '').toLowerCase()]));
    for (const b of confirmed)
      if (billRows.get(b.id) !== b.status) this.fail(`${b.name}: the database says ${billRows.get(b.id)}, the model ${b.status}`);
  }

  /**
   * The end of a seed: time passes beyond every hold and payout lease, the jobs run without faults,
   * and nothing of this seed is left due for the next one.
   */
  async finish() {
    this.note('finish');
    this.advance(HOLD_MS + DAY);
    await this.clear('none');
    await this.check();
    for (let i = 0; i < 5 && this.bills.some((b) => b.status === 'processing'); i++) {
      this.advance(2 * MINUTE);
      await this.payouts('none');
      await this.check();
    }
    const stuck = this.bills.filter((b) => b.status === 'processing');
    if (stuck.length) this.fail(`cash-outs still processing after the payout passes: ${stuck.map((b) => b.name).join(', ')}`);
    const held = this.orders.filter((o) => o.status === 'paid' && o.clearsAt !== null && !o.cleared);
    if (held.length) this.fail(`sales still held after the hold: ${held.map((o) => o.name).join(', ')}`);
  }
}

/**
 * Runs every kind of posting once before the seeds, so the services' in-memory caches (the platform
 * accounts' ids) are as warm for a seed replayed alone as in a full run: a transaction then sends
 * the same statements, and a cut lands on the same one.
 */
async function warmUp() {
  const sim = new Sim(0);
  await sim.build();
  const buyer = sim.users[sim.users.length - 1]!;
  await sim.topUp(buyer, 5000, 'none');
  const coll = sim.colls[0]!;
  if (coll.price === 0) await sim.price(coll, 10, 'none');
  const o = await sim.buy(buyer, coll, 'none');
  await sim.pay(o!, o!.amount, 'none');
  for (let i = 0; i < 10 && !sim.bills.some((b) => b.status === 'success'); i++) {
    await sim.cashOut(buyer, 'none');
    await sim.payouts('none');
  }
  await sim.finish();
  await sim.check();
}

async function runSeed(seed: number) {
  const sim = new Sim(seed);
  const started = Date.now();
  try {
    const prof = { build: 0, steps: 0, checks: 0, finish: 0 };
    let at = Date.now();
    const lap = (k: keyof typeof prof) => {
      const n = Date.now();
      prof[k] += n - at;
      at = n;
    };
    await sim.build();
    lap('build');
    await sim.check();
    lap('checks');
    for (sim.step = 1; sim.step <= OPS; sim.step++) {
      await sim.randomStep();
      lap('steps');
      await sim.check();
      lap('checks');
    }
    sim.step = OPS + 1;
    await sim.finish();
    lap('finish');
    if (process.env.SIM_VERBOSE) console.log(`SIM_SEED=${seed} passed (ms ${JSON.stringify(prof)})\n${sim.log.join('\n')}`);
  } catch (err) {
    faults.disarm();
    const msg =
      err instanceof SimFailure
        ? err.message
        : `unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    const text = `SIM_SEED=${seed} failed at step ${sim.step}: ${msg}\noperation log (replay: SIM_SEED=${seed} npx vitest run src/test/simulation.test.ts):\n${sim.log.join('\n')}`;
    console.error(text);
    // Best effort: leave nothing of this seed due or in flight for the next one.
    t.clock.advance(HOLD_MS + DAY);
    await t.app.ctx.services.clearance.clearDue().catch(() => undefined);
    for (let i = 0; i < 3; i++) {
      t.clock.advance(2 * MINUTE);
      await t.app.ctx.services.withdrawals.runPayouts(50).catch(() => undefined);
    }
    throw new Error(text);
  }
  return Date.now() - started;
}

describe('fault injector', () => {
  it('cuts the k-th statement of an operation; a cut transaction writes nothing, even when the code swallows the error', async () => {
    const db = t.app.ctx.database.db;
    const key = `sim-selftest:${Date.now()}`;
    const posted = () => rows(sql`select count(*)::int as n from ledger_transactions where idempotency_key like ${`${key}%`}`);
    const user = await createUser(t);
    const post = (suffix: string, tx?: Parameters<Parameters<typeof db.transaction>[0]>[0]) =>
      t.app.ctx.services.ledger.post(
        {
          key: `${key}:${suffix}`,
          kind: 'deposit',
          bizId: key,
          entries: [
            { account: { platform: 'deposits' }, amount: -1n },
            { account: { userId: user.id, kind: 'available' }, amount: 1n },
          ],
        },
        tx,
      );
    for (const mode of ['before', 'after'] as const) {
      faults.arm(1, mode);
      // drizzle wraps the driver's error ('Failed query: ...'); the fault is its cause.
      await expect(post(mode)).rejects.toSatisfy(isFault);
      expect(faults.disarm()).toMatchObject({ fired: true, count: 1 });
    }
    faults.arm(1, 'before');
    await expect(
      db.transaction(async (tx) => {
        await post('swallowed', tx).catch(() => undefined);
        await post('after-the-cut', tx).catch(() => undefined);
      }),
    ).rejects.toThrow(/a cut transaction cannot commit/);
    faults.disarm();
    expect((await posted())[0]!.n).toBe(0);
    // Disarmed, the same posting goes through.
    await post('clean');
    expect((await posted())[0]!.n).toBe(1);
  });
});

describe('simulation', () => {
  SEEDS.forEach((seed, i) => {
    it(`seed ${seed}`, async () => {
      if (i > 0 && i % SEEDS_PER_WORLD === 0) {
        await closeWorld();
        await openWorld();
      }
      await runSeed(seed);
    }, 300_000);
  });
});
