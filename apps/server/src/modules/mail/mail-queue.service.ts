/**
 * The mail queue (docs/decisions/0032-mail-queue.md): notification mails written in the
 * transaction of the change they tell about, sent after COMMIT, retried until the mail server
 * accepts them.
 *
 * - {@link MailQueue.enqueue} inserts the mails in the caller's transaction (a mail whose `key` was
 *   queued before is skipped), each leased to this instance for one attempt's time.
 * - After COMMIT the caller passes the ids to {@link MailQueue.sendNow}: this instance sends them at
 *   once, in the background. A mail of a transaction that rolled back does not exist, so it is
 *   never sent.
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
import type { MailProvider } from '../../providers/mail/index';
import * as repo from './mail-queue.repository';

/** Waits after failed attempt 1, 2, 3...; the last repeats. */
export const MAIL_RETRY_DELAYS_MS = [30_000, 300_000, 1_800_000, 7_200_000, 21_600_000] as const;
/** A mail is `failed` after this many attempts (about 1.5 days with the delays above). */
export const MAIL_MAX_ATTEMPTS = 10;
/** Sent mails are deleted this long after they were sent. */
export const MAIL_KEEP_SENT_MS = 30 * 24 * 3_600_000;
/** Mails one worker claim takes. */
const CLAIM_LIMIT = 20;

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

  /** One attempt of a claimed mail; records its outcome unless its lease was taken over meanwhile. */
  async function attempt(row: repo.MailQueueRow): Promise<Outcome> {
    try {
      const sent = await withTimeout(mail.send({ to: row.to, subject: row.subject, text: row.body }), deps.timeoutMs);
      const now = new Date(clock.now());
      const kept = await repo.finishAttempt(db, row.id, row.attempts, {
        status: 'sent',
        nextAttemptAt: null,
        lastError: null,
        messageId: sent.messageId,
        sentAt: now,
        updatedAt: now,
      });
      return kept ? 'sent' : 'lost';
    } catch (err) {
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
  }

  return {
    /**
     * Queues `mails` in `tx`. Call {@link sendNow} with the ids after COMMIT.
     * @returns the ids of the mails queued (a `key` queued before is skipped)
     */
    async enqueue(tx: Tx, mails: QueuedMail[]): Promise<string[]> {
      if (!mails.length) return [];
      const now = clock.now();
      return repo.insertMany(
        tx,
        mails.map((m) => ({
          id: newId(),
          key: m.key,
          to: m.to,
          subject: m.subject,
          body: m.text,
          status: 'pending',
          attempts: 0,
          // Held for this instance's first attempt: the worker takes it only if that never happens.
          nextAttemptAt: new Date(now + leaseMs),
          createdAt: new Date(now),
          updatedAt: new Date(now),
        })),
      );
    },

    /**
     * Sends the committed mails `ids` from this instance, in the background, one after another;
     * {@link settled} waits for them. Never throws: a failure is retried by the worker.
     */
    sendNow(ids: string[]): void {
      if (!ids.length) return;
      const job = (async () => {
        const claimed = await repo.claimIds(db, ids, new Date(clock.now()), new Date(clock.now() + leaseMs));
        for (const row of claimed) await attempt(row);
      })().catch((err: unknown) => log.error({ err, mails: ids.length }, 'mail queue: sending failed; the worker retries'));
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
        for (const row of claimed) out[await attempt(row)]++;
        if (claimed.length < CLAIM_LIMIT) break;
      }
      out.purged = await repo.purgeSent(db, new Date(clock.now() - MAIL_KEEP_SENT_MS), 1_000);
      return out;
    },
  };
}

export type MailQueue = ReturnType<typeof createMailQueue>;
