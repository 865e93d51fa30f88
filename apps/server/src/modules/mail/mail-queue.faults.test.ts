/**
 * The mail queue against a mail server that refuses, answers late, loses its answer after
 * accepting, or never answers (docs/decisions/0032-mail-queue.md). A seeded loop
 * (MAIL_FAULT_RUNS schedules, default 100) queues mails in transactions that commit or roll back,
 * lets the queuing instance send them or "stop" before it does, and runs worker passes from two
 * instances while the clock moves. After each schedule:
 * - no mail of a rolled-back transaction was ever sent;
 * - every committed mail is final: `sent` (and the server got it at least once) or `failed` after
 *   MAIL_MAX_ATTEMPTS attempts that all failed;
 * - a mail the server got twice had an attempt whose outcome was unknown (late or lost answer).
 * Runs on a database of its own on PostgreSQL (the worker passes take every due mail).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailQueue } from '../../db/schema/index';
import { ManualClock } from '../../lib/clock';
import type { MailMessage, MailProvider } from '../../providers/mail/index';
import { seeded } from '../../test/chain/rpc-proxy';
import { createTestApp, uniq, type TestApp } from '../../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../../test/scratch-database';
import * as repo from './mail-queue.repository';
import { createMailQueue, MAIL_MAX_ATTEMPTS, type MailQueue, type QueuedMail } from './mail-queue.service';

const RUNS = Number(process.env.MAIL_FAULT_RUNS ?? 100);
const TIMEOUT_MS = 40;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

type Fault = 'ok' | 'refuse' | 'lose-answer' | 'late' | 'no-answer';

/**
 * A mail server that does what `pick()` says for each send, and records what it really got. With
 * `pickBatch` it also takes batches (`sendMany`, as the outbox does): each mail of a batch gets its
 * own fault, the batch answers when its slowest mail does, and `crash` delivers the first half of
 * the batch and then fails it as a whole. A batch with an unknown outcome makes all its mails ambiguous.
 */
function lyingServer(pick: () => Fault, pickBatch?: () => 'ok' | 'crash') {
  const got = new Map<string, number>();
  const ambiguous = new Set<string>();
  const pending = new Set<Promise<unknown>>();
  const receive = (m: MailMessage) => got.set(m.subject, (got.get(m.subject) ?? 0) + 1);
  const later = <T>(ms: number, then: () => T): Promise<T> => {
    const p = new Promise<T>((resolve, reject) =>
      setTimeout(() => {
        try {
          resolve(then());
        } catch (err) {
          reject(err);
        }
      }, ms),
    );
    const settled = p.catch(() => undefined);
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
    return p;
  };
  const sendOne = async (m: MailMessage, fault: Fault) => {
    if (fault === 'ok') {
      receive(m);
      return { messageId: `<${uniq()}@test>`, location: 'smtp' };
    }
    if (fault === 'refuse') throw new Error('550 refused');
    ambiguous.add(m.subject);
    if (fault === 'lose-answer') {
      receive(m);
      throw new Error('connection reset after DATA');
    }
    if (fault === 'late') {
      return later(TIMEOUT_MS + 15, () => {
        receive(m);
        return { messageId: `<${uniq()}@test>`, location: 'smtp' };
      });
    }
    return later(TIMEOUT_MS + 15, () => {
      throw new Error('socket closed');
    });
  };
  const provider: MailProvider = {
    kind: 'smtp',
    send: (m) => sendOne(m, pick()),
    ...(pickBatch && {
      async sendMany(ms: MailMessage[]) {
        if (pickBatch() === 'crash') {
          for (const m of ms) ambiguous.add(m.subject);
          ms.slice(0, Math.ceil(ms.length / 2)).forEach(receive);
          throw new Error('the outbox writer stopped (exit code 1)');
        }
        const faults = ms.map(() => pick());
        if (faults.some((f) => f === 'late' || f === 'no-answer')) for (const m of ms) ambiguous.add(m.subject);
        return Promise.all(ms.map((m, i) => sendOne(m, faults[i]!).catch((err: Error) => err)));
      },
    }),
    close: async () => undefined,
  };
  return { provider, got, ambiguous, drained: async () => void (await Promise.all([...pending])) };
}

let t: TestApp;
let db: Db;
let scratch: ScratchDatabase | undefined;
beforeAll(async () => {
  scratch = await createScratchDatabase('coffer_mail');
  t = await createTestApp(scratch ? { DATABASE_URL: scratch.url } : {});
  db = t.app.ctx.database.db;
});
afterAll(async () => {
  await t.close();
  await scratch?.drop();
});

const mailOf = (subject: string): QueuedMail => ({
  key: `test:${subject}`,
  to: `${subject}@example.com`,
  subject,
  text: 'hello',
});

describe('mail queue', () => {
  it('sends a committed mail once, skips a key queued before, and never sends a rolled-back one', async () => {
    const server = lyingServer(() => 'ok');
    const q = createMailQueue({ db, clock: new ManualClock(), mail: server.provider, log: quiet, timeoutMs: TIMEOUT_MS });
    const a = mailOf(`a-${uniq()}`);
    const b = mailOf(`b-${uniq()}`);
    const ids = await db.transaction((tx) => q.enqueue(tx, [a]));
    expect(await db.transaction((tx) => q.enqueue(tx, [a]))).toEqual([]);
    await expect(
      db.transaction(async (tx) => {
        q.sendNow(await q.enqueue(tx, [b]));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    q.sendNow(ids);
    await q.settled();
    expect(server.got.get(a.subject)).toBe(1);
    expect(server.got.has(b.subject)).toBe(false);
    const [row] = await repo.findMany(db, ids);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, nextAttemptAt: null });
    expect(row!.messageId).toMatch(/@test>$/);
  });

  it('retries a refused mail after its delay, and leaves a mail held by another attempt alone', async () => {
    let fault: Fault = 'refuse';
    const server = lyingServer(() => fault);
    const clock = new ManualClock();
    const q = createMailQueue({ db, clock, mail: server.provider, log: quiet, timeoutMs: TIMEOUT_MS });
    const m = mailOf(`r-${uniq()}`);
    const ids = await db.transaction((tx) => q.enqueue(tx, [m]));
    q.sendNow(ids);
    await q.settled();
    expect((await repo.findMany(db, ids))[0]).toMatchObject({ status: 'pending', attempts: 1, lastError: '550 refused' });
    fault = 'ok';
    await q.deliverDue();
    expect(server.got.has(m.subject)).toBe(false); // not due yet (30 s)
    clock.advance(30_000);
    await q.deliverDue();
    expect(server.got.get(m.subject)).toBe(1);
    expect((await repo.findMany(db, ids))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('sends a held mail without claiming it again, and leaves one whose lease no longer covers an attempt to the worker', async () => {
    const server = lyingServer(() => 'ok');
    const clock = new ManualClock();
    const q = createMailQueue({ db, clock, mail: server.provider, log: quiet, timeoutMs: TIMEOUT_MS });
    const [fresh, late] = [mailOf(`h-${uniq()}`), mailOf(`l-${uniq()}`)];
    const [freshId] = await db.transaction((tx) => q.enqueue(tx, [fresh]));
    q.sendNow([freshId!]);
    await q.settled();
    expect(server.got.get(fresh.subject)).toBe(1);
    // Sent as inserted: attempt 1, the insert's claim.
    expect((await repo.findMany(db, [freshId!]))[0]).toMatchObject({ status: 'sent', attempts: 1 });

    const [lateId] = await db.transaction((tx) => q.enqueue(tx, [late]));
    clock.advance(30_000); // the lease (timeout + 30 s) now leaves less than the timeout
    q.sendNow([lateId!]);
    await q.settled();
    expect(server.got.has(late.subject)).toBe(false); // not due yet: no attempt of its own either
    clock.advance(1_000);
    await q.deliverDue();
    expect(server.got.get(late.subject)).toBe(1);
    expect((await repo.findMany(db, [lateId!]))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('sends the mails of many calls after the current turn, together, and records each accepted one once', async () => {
    const server = lyingServer(() => 'ok');
    const q = createMailQueue({ db, clock: new ManualClock(), mail: server.provider, log: quiet, timeoutMs: TIMEOUT_MS });
    const mails = Array.from({ length: 5 }, () => mailOf(`n-${uniq()}`));
    const ids = await db.transaction((tx) => q.enqueue(tx, mails));
    for (const id of ids) q.sendNow([id]);
    await Promise.resolve();
    expect(server.got.size).toBe(0); // nothing on the caller's turn
    await q.settled();
    for (const m of mails) expect(server.got.get(m.subject)).toBe(1);
    const rows = await repo.findMany(db, ids);
    expect(rows).toHaveLength(5);
    for (const r of rows) expect(r).toMatchObject({ status: 'sent', attempts: 1, nextAttemptAt: null, lastError: null });
  });

  it('sends a batch in one sendMany: a refused mail alone is retried, and a batch that fails as a whole is retried whole', async () => {
    const faults: Fault[] = ['ok', 'refuse', 'ok'];
    let batch: 'ok' | 'crash' = 'ok';
    const server = lyingServer(
      () => faults.shift() ?? 'ok',
      () => batch,
    );
    let batches = 0;
    const sendMany = server.provider.sendMany!;
    server.provider.sendMany = (ms) => (batches++, sendMany(ms));
    const clock = new ManualClock();
    const q = createMailQueue({ db, clock, mail: server.provider, log: quiet, timeoutMs: TIMEOUT_MS });
    const mails = Array.from({ length: 3 }, () => mailOf(`m-${uniq()}`));
    const ids = await db.transaction((tx) => q.enqueue(tx, mails));
    q.sendNow(ids);
    await q.settled();
    expect(batches).toBe(1);
    const status = async () => new Map((await repo.findMany(db, ids)).map((r) => [r.subject, r.status]));
    expect(await status()).toEqual(
      new Map([
        [mails[0]!.subject, 'sent'],
        [mails[1]!.subject, 'pending'],
        [mails[2]!.subject, 'sent'],
      ]),
    );

    const more = Array.from({ length: 2 }, () => mailOf(`c-${uniq()}`));
    const moreIds = await db.transaction((tx) => q.enqueue(tx, more));
    batch = 'crash';
    q.sendNow(moreIds);
    await q.settled();
    for (const r of await repo.findMany(db, moreIds)) {
      expect(r).toMatchObject({ status: 'pending', attempts: 1, lastError: 'the outbox writer stopped (exit code 1)' });
    }
    batch = 'ok';
    clock.advance(30_000);
    await q.deliverDue();
    for (const r of await repo.findMany(db, [...ids, ...moreIds])) expect(r.status).toBe('sent');
    expect(server.got.get(mails[1]!.subject)).toBe(1);
  });

  it('records a batch of accepted sends only for the rows each attempt still holds', async () => {
    const q = createMailQueue({
      db,
      clock: new ManualClock(),
      mail: lyingServer(() => 'ok').provider,
      log: quiet,
      timeoutMs: TIMEOUT_MS,
    });
    const [a, b, c] = [mailOf(`f-${uniq()}`), mailOf(`f-${uniq()}`), mailOf(`f-${uniq()}`)];
    const ids = await db.transaction((tx) => q.enqueue(tx, [a, b, c]));
    // Inserted holding attempt 1's lease: nothing to claim until it runs out (the instance never sent).
    expect(await repo.claimIds(db, ids, new Date(), new Date(Date.now() + 60_000))).toEqual([]);
    const now = new Date(Date.now() + 10 * 60_000);
    const claimed = await repo.claimIds(db, ids, now, new Date(now.getTime() + 60_000));
    expect(claimed.map((r) => r.attempts)).toEqual([2, 2, 2]);
    const [ra, rb, rc] = ids.map((id) => claimed.find((r) => r.id === id)!);
    // b's lease was taken over by a second attempt; c was recorded as failed meanwhile.
    expect(await repo.claimIds(db, [rb!.id], new Date(now.getTime() + 120_000), new Date(now.getTime() + 180_000))).toHaveLength(
      1,
    );
    expect(
      await repo.finishAttempt(db, rc!.id, 2, { status: 'failed', nextAttemptAt: null, lastError: 'x', updatedAt: now }),
    ).toBe(true);
    const kept = await repo.finishSent(
      db,
      [ra!, rb!, rc!].map((r) => ({ id: r.id, attempts: r.attempts, messageId: `<${r.id}@test>` })),
      now,
    );
    expect([...kept]).toEqual([ra!.id]);
    const rows = new Map((await repo.findMany(db, ids)).map((r) => [r.id, r]));
    expect(rows.get(ra!.id)).toMatchObject({ status: 'sent', messageId: `<${ra!.id}@test>`, nextAttemptAt: null });
    expect(rows.get(rb!.id)).toMatchObject({ status: 'pending', attempts: 3, messageId: null });
    expect(rows.get(rc!.id)).toMatchObject({ status: 'failed', messageId: null });
  });

  it(`keeps every committed mail and drops every rolled-back one over ${RUNS} seeded fault schedules`, async () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const rng = seeded(seed);
      const faults: Fault[] = ['ok', 'ok', 'refuse', 'lose-answer', 'late', 'no-answer'];
      // Odd seeds send in batches (sendMany), as the outbox does; even seeds one by one.
      const server = lyingServer(
        () => faults[Math.floor(rng() * faults.length)]!,
        seed % 2 ? () => (rng() < 0.15 ? 'crash' : 'ok') : undefined,
      );
      const clock = new ManualClock(Date.UTC(2026, 0, 1) + seed * 86_400_000);
      const queues: MailQueue[] = [0, 1].map(() =>
        createMailQueue({ db, clock, mail: server.provider, log: quiet, timeoutMs: TIMEOUT_MS }),
      );
      const committed: string[] = [];
      const rolledBack: string[] = [];
      for (let txn = 0, n = 1 + Math.floor(rng() * 4); txn < n; txn++) {
        const mails = Array.from({ length: 1 + Math.floor(rng() * 3) }, () => mailOf(`s${seed}-${uniq()}`));
        const commit = rng() < 0.75;
        const sendAtOnce = rng() < 0.7; // otherwise the instance stops before it sends
        const q = queues[Math.floor(rng() * 2)]!;
        const ids = await db
          .transaction(async (tx) => {
            const queued = await q.enqueue(tx, mails);
            if (!commit) throw new Error('rolled back');
            return queued;
          })
          .catch(() => []);
        (commit ? committed : rolledBack).push(...mails.map((m) => m.subject));
        if (sendAtOnce) q.sendNow(ids);
      }
      await Promise.all(queues.map((q) => q.settled()));
      const keys = committed.map((s) => `test:${s}`);
      const rows = () => (keys.length ? db.select().from(mailQueue).where(inArray(mailQueue.key, keys)) : Promise.resolve([]));
      for (let pass = 0; pass < 120; pass++) {
        if ((await rows()).every((r) => r.status !== 'pending')) break;
        clock.advance(Math.floor(rng() * 6 * 3_600_000) + 1_000);
        await Promise.all(queues.filter(() => rng() < 0.8).map((q) => q.deliverDue()));
      }
      await server.drained();

      const context = `seed ${seed}`;
      for (const s of rolledBack) expect(server.got.has(s), `${context}: rolled back ${s} was sent`).toBe(false);
      const final = await rows();
      expect(final, context).toHaveLength(committed.length);
      for (const r of final) {
        expect(['sent', 'failed'], `${context}: ${r.key} is ${r.status}`).toContain(r.status);
        if (r.status === 'sent')
          expect(server.got.get(r.subject) ?? 0, `${context}: ${r.key} sent but never received`).toBeGreaterThan(0);
        else expect(r.attempts, `${context}: ${r.key} failed early`).toBe(MAIL_MAX_ATTEMPTS);
        if ((server.got.get(r.subject) ?? 0) > 1) {
          expect(server.ambiguous.has(r.subject), `${context}: ${r.key} sent twice without an unknown outcome`).toBe(true);
        }
      }
    }
    // 100 schedules on PostgreSQL take 15-60 s depending on the machine's load: the limit is the loop's, not a figure.
  }, 300_000);
});
