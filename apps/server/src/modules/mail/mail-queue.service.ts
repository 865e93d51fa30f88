/**
 * The mail queue (docs/decisions/0032-mail-queue.md): notification mails written in the
 * transaction of the change they tell about, sent after COMMIT, retried until the mail server
 * accepts them.
 *
 * - {@link MailQueue.enqueue} inserts the mails in the caller's transaction (a mail whose `key` was
 *   queued before is skipped), each already claimed for its first attempt by this instance (attempt
 *   1, leased for the mail server's timeout plus 30 s); the instance keeps what it inserted.
 * - After COMMIT the caller passes the ids to {@link MailQueue.sendNow}: this instance sends them
 *   in the background right after the current turn of the event loop, the mails of many calls
 *   together: one read confirms that the rows exist and are still held by that first attempt, the
 *   mails are sent from what was kept, and one UPDATE records the accepted sends
 *   (docs/decisions/0033-purchase-hot-path.md, 0041-receipts-without-a-claiming-update.md). A mail
 *   of a transaction that rolled back does not exist, so it is never sent.
 * - The `mail` worker ({@link MailQueue.deliverDue}) takes every due mail: leases that ran out (an
 *   instance stopped mid-send) and retries, after {@link MAIL_RETRY_DELAYS_MS}; after
 *   {@link MAIL_MAX_ATTEMPTS} failed attempts a mail is `failed` and logged at error level.
 *
 * A mail is sent at least once, never lost: a send that times out or whose answer is lost is tried
 * again, so a slow mail server can deliver it twice. That is the right side to err on for a
 * notice; nothing that moves money depends on a mail. Times come from the injected clock (ms).
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { newId } from '../../lib/ids';
import type { MailProvider, SentMail } from '../../providers/mail/index';
import * as repo from './mail-queue.repository';
import { isHeaderSafe, oneLine } from './mail-text';

/** Waits after failed attempt 1, 2, 3...; the last repeats. */
export const MAIL_RETRY_DELAYS_MS = [30_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
/** A mail is `failed` after this many attempts (about 1.5 days with the delays above). */
export const MAIL_MAX_ATTEMPTS = 10;
/** Sent mails are deleted this long after they were sent. */
export const MAIL_KEEP_SENT_MS = 30 * 24 * 3_600_000;
/** Mails one worker claim takes. */
const CLAIM_LIMIT = 20;
/** Mails {@link MailQueue.sendNow} claims and records per statement (a purchase batch's receipts fit). */
const SEND_BATCH = 64;

/** A notification mail to queue; `key` names why it is sent (`library-change:<seq>:<user id>`), unique. */
export interface QueuedMail {
  key: string;
  to: string;
  subject: string;
  text: string;
}

export interface MailQueueDeps {
  db: Db;
  clock: Clock;
  mail: MailProvider;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** MAIL_TIMEOUT_MS: how long one attempt waits for the mail server (ms). */
  timeoutMs: number;
}

type Outcome = 'sent' | 'retry' | 'failed' | 'lost';

/** Resolves with the provider's answer, or rejects after `ms` (the send itself cannot be recalled). */
function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the mail server in ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export function createMailQueue(deps: MailQueueDeps) {
  const { db, clock, mail, log } = deps;
  const leaseMs = deps.timeoutMs + 30_000;
  const inFlight = new Set<Promise<unknown>>();

  /**
   * Sends the claimed `rows` (in one {@link MailProvider.sendMany} call when the provider has it and
   * there is more than one, else one after another), then records the accepted ones in one statement
   * ({@link repo.finishSent}); a refused or timed-out attempt is recorded at once, alone, with its
   * retry time (or `failed` after {@link MAIL_MAX_ATTEMPTS}). An outcome is written only while the
   * row is still held by that attempt, so a late answer changes nothing ('lost').
   * @returns how many rows ended each way
   */
  async function attemptAll(rows: repo.ClaimedMail[]): Promise<Record<Outcome, number>> {
    const out: Record<Outcome, number> = { sent: 0, retry: 0, failed: 0, lost: 0 };
    const accepted: { id: string; attempts: number; messageId: string }[] = [];
    const message = (row: repo.ClaimedMail) => ({ to: row.to, subject: row.subject, text: row.body });
    if (mail.sendMany && rows.length > 1) {
      // One hand-off for the batch (the outbox's writer thread, ADR 0038 and 0039). A batch that fails as a
      // whole or times out is a failed attempt for each of its mails: retried, never dropped.
      let results: (SentMail | Error)[];
      try {
        results = await withTimeout(mail.sendMany(rows.map(message)), deps.timeoutMs);
      } catch (err) {
        results = rows.map(() => (err instanceof Error ? err : new Error(String(err))));
      }
      for (const [i, row] of rows.entries()) {
        const r = results[i] ?? new Error('the mail provider gave no answer for this mail');
        if (r instanceof Error) out[await failed(row, r)]++;
        else accepted.push({ id: row.id, attempts: row.attempts, messageId: r.messageId });
      }
    } else {
      for (const row of rows) {
        try {
          const sent = await withTimeout(mail.send(message(row)), deps.timeoutMs);
          accepted.push({ id: row.id, attempts: row.attempts, messageId: sent.messageId });
        } catch (err) {
          out[await failed(row, err)]++;
        }
      }
    }
    const kept = await repo.finishSent(db, accepted, new Date(clock.now()));
    out.sent += kept.size;
    out.lost += accepted.length - kept.size;
    return out;
  }

  /** Records a failed attempt: retried after its delay, or `failed` after the last attempt. */
  async function failed(row: repo.ClaimedMail, err: unknown): Promise<Outcome> {
    const message = err instanceof Error ? err.message : String(err);
    const now = clock.now();
    const final = row.attempts >= MAIL_MAX_ATTEMPTS;
    const delay = MAIL_RETRY_DELAYS_MS[Math.min(row.attempts, MAIL_RETRY_DELAYS_MS.length) - 1]!;
    const kept = await repo.finishAttempt(db, row.id, row.attempts, {
      status: final ? 'failed' : 'pending',
      nextAttemptAt: final ? null : new Date(now + delay),
      lastError: message.slice(0, 500),
      updatedAt: new Date(now),
    });
    if (!kept) return 'lost';
    if (final) log.error({ mailId: row.id, key: row.key, attempts: row.attempts, err: message }, 'mail failed for good');
    else log.warn({ mailId: row.id, key: row.key, attempts: row.attempts, err: message }, 'mail attempt failed; retried later');
    return final ? 'failed' : 'retry';
  }

  /** Ids handed to {@link MailQueue.sendNow} and not sent yet. */
  const waiting: string[] = [];
  /**
   * What this instance inserted, holding its first attempt, by id in insertion order: what
   * {@link sendNow} sends without reading it back. An entry leaves when its id is taken by the
   * sender, or at the next {@link enqueue} once its lease has less than an attempt's time left
   * (the mails of a transaction that rolled back, whose ids never reach `sendNow`).
   */
  const held = new Map<string, { mail: repo.ClaimedMail; leaseUntil: number }>();
  const pruneHeld = (now: number) => {
    for (const [id, h] of held) {
      if (now + deps.timeoutMs < h.leaseUntil) return;
      held.delete(id);
    }
  };
  /** True while the sender loop runs (at most one per instance). */
  let sending = false;

  /**
   * The sender loop: after the current turn of the event loop (so the requests that queued the
   * mails are answered first), takes up to {@link SEND_BATCH} waiting ids, sends them, records
   * them, and repeats while ids wait. A mail this instance holds, whose lease still leaves a whole
   * attempt's time, is sent from what was kept once one read ({@link repo.stillHeld}) has found its
   * row committed and still at attempt 1; any other id is claimed in one statement, which takes it
   * only when it is due (an attempt another instance or the worker holds is left alone).
   */
  async function sendWaiting(): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.length) {
      const ids = waiting.splice(0, SEND_BATCH);
      try {
        const now = clock.now();
        const kept: repo.ClaimedMail[] = [];
        const others: string[] = [];
        for (const id of ids) {
          const h = held.get(id);
          held.delete(id);
          if (h && now + deps.timeoutMs < h.leaseUntil) kept.push(h.mail);
          else others.push(id);
        }
        const committed = kept.length
          ? await repo.stillHeld(
              db,
              kept.map((m) => m.id),
            )
          : new Set<string>();
        const claimed = others.length ? await repo.claimIds(db, others, new Date(now), new Date(now + leaseMs)) : [];
        await attemptAll([...kept.filter((m) => committed.has(m.id)), ...claimed]);
      } catch (err) {
        log.error({ err, mails: ids.length }, 'mail queue: sending failed; the worker retries');
      }
    }
    // No await between the last check of `waiting` and this: an id queued later starts a new loop.
    sending = false;
  }

  return {
    /**
     * Queues `mails` in `tx`. Call {@link sendNow} with the ids after COMMIT.
     * @returns the ids of the mails queued (a `key` queued before is skipped)
     * A subject holding a line break or another control character (a header injection: subjects
     * quote seller text with `quoted`, mail-text.ts, so this is a bug) is flattened to one line and
     * logged, never sent as is, and never fails the caller's transaction (a payment, a change).
     */
    async enqueue(tx: Tx, mails: QueuedMail[]): Promise<string[]> {
      if (!mails.length) return [];
      mails = mails.map((m) => {
        if (isHeaderSafe(m.subject)) return m;
        log.error({ key: m.key }, 'mail queue: a subject held a control character; flattened');
        return { ...m, subject: oneLine(m.subject) };
      });
      const now = clock.now();
      const rows = mails.map((m) => ({
        id: newId(),
        key: m.key,
        to: m.to,
        subject: m.subject,
        body: m.text,
        status: 'pending',
        // Claimed for this instance's first attempt: the worker takes it only if that never happens.
        attempts: 1,
        nextAttemptAt: new Date(now + leaseMs),
        createdAt: new Date(now),
        updatedAt: new Date(now),
      }));
      const inserted = await repo.insertMany(tx, rows);
      pruneHeld(now);
      const byId = new Map(rows.map((r) => [r.id, r]));
      for (const id of inserted) {
        const r = byId.get(id)!;
        held.set(id, {
          mail: { id, key: r.key, to: r.to, subject: r.subject, body: r.body, attempts: 1 },
          leaseUntil: now + leaseMs,
        });
      }
      return inserted;
    },

    /**
     * Sends the committed mails `ids` from this instance, in the background: after the current turn
     * of the event loop, mails of many calls together, a batch at a time (one read confirming the
     * rows, the sends, one UPDATE for the accepted ones; an id this instance no longer holds is
     * claimed by an UPDATE once due); {@link settled} waits for them.
     * Never throws: a failure is retried by the worker.
     */
    sendNow(ids: string[]): void {
      if (!ids.length) return;
      waiting.push(...ids);
      if (sending) return;
      sending = true;
      const job = sendWaiting();
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
    },

    /** Waits for the mails {@link sendNow} started (tests; shutdown). */
    async settled(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },

    /**
     * One worker pass: sends every due mail (claimed with `FOR UPDATE SKIP LOCKED` and a lease of
     * the timeout plus 30 s) until none is due or `signal` aborts, then deletes mails sent over
     * {@link MAIL_KEEP_SENT_MS} ago. Never throws for the mail server's failure.
     * @returns counts of this pass
     */
    async deliverDue(signal?: AbortSignal) {
      const out = { sent: 0, retry: 0, failed: 0, lost: 0, purged: 0 };
      for (;;) {
        if (signal?.aborted) return out;
        const now = clock.now();
        const claimed = await db.transaction((tx) => repo.claimDue(tx, new Date(now), new Date(now + leaseMs), CLAIM_LIMIT));
        const done = await attemptAll(claimed);
        for (const k of ['sent', 'retry', 'failed', 'lost'] as const) out[k] += done[k];
        if (claimed.length < CLAIM_LIMIT) break;
      }
      out.purged = await repo.purgeSent(db, new Date(clock.now() - MAIL_KEEP_SENT_MS), 1_000);
      return out;
    },
  };
}

export type MailQueue = ReturnType<typeof createMailQueue>;
