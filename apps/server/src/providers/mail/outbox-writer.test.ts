/**
 * The outbox writer's bookkeeping under a worker that answers twice, late, for an unknown job or not
 * at all (docs/decisions/0038-receipts-off-the-threadpool.md, 0039): each job resolves exactly once,
 * with its own answer.
 */
import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { createOutboxWriter, type OutboxFile } from './outbox-writer';

/** A worker thread stand-in: records what is posted; the test decides what it answers, and when. */
class FakeWorker extends EventEmitter {
  posted: { id: number; files: OutboxFile[] }[] = [];
  refs = 0;
  terminated = false;
  postMessage(job: { id: number; files: OutboxFile[] }) {
    this.posted.push(job);
  }
  ref() {
    this.refs += 1;
  }
  unref() {}
  async terminate() {
    this.terminated = true;
    return 0;
  }
  answer(id: number, messageIds: string[]) {
    this.emit('message', { id, results: messageIds.map((messageId) => ({ messageId })) });
  }
}

const file = (n: number): OutboxFile => ({
  path: `/tmp/outbox/${n}.eml`,
  mode: 0o600,
  message: { from: 'Coffer <no-reply@coffer.local>', to: `u${n}@example.com`, subject: 's', text: 't' },
});

function writerWithFake() {
  const workers: FakeWorker[] = [];
  const writer = createOutboxWriter({
    spawn: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w as unknown as Worker;
    },
  });
  return { writer, workers };
}

describe('outbox writer, worker answers', () => {
  it('a job answered twice resolves once, with the first answer; the next job gets its own answer, not the repeat', async () => {
    const { writer, workers } = writerWithFake();
    const settled: unknown[] = [];
    const first = writer.writeMany([file(1)]).then((r) => settled.push(r));
    const w = workers[0]!;
    const [job1] = w.posted;
    w.answer(job1!.id, ['<a@coffer>']);
    w.answer(job1!.id, ['<a-again@coffer>']);
    await first;
    expect(settled).toEqual([[{ messageId: '<a@coffer>' }]]);

    const second = writer.writeMany([file(2), file(3)]);
    const job2 = w.posted[1]!;
    expect(job2.id).not.toBe(job1!.id);
    // The repeat of the first job arrives again while the second is pending: it is not taken for it.
    w.answer(job1!.id, ['<a-third@coffer>']);
    w.answer(job2.id, ['<b@coffer>', '<c@coffer>']);
    await expect(second).resolves.toEqual([{ messageId: '<b@coffer>' }, { messageId: '<c@coffer>' }]);
    expect(workers).toHaveLength(1);
  });

  it('an answer for a job that was never posted is ignored; an answer after the worker failed the job does not resolve it again', async () => {
    const { writer, workers } = writerWithFake();
    const pending = writer.writeMany([file(1)]);
    const w = workers[0]!;
    w.answer(999, ['<stray@coffer>']);
    // The worker crashes before answering: the job rejects (its file may or may not exist).
    w.emit('error', new Error('worker crashed'));
    await expect(pending).rejects.toThrow('worker crashed');
    // Its late answer changes nothing, and the next write starts a new worker.
    w.answer(w.posted[0]!.id, ['<late@coffer>']);
    const next = writer.writeMany([file(2)]);
    expect(workers).toHaveLength(2);
    workers[1]!.answer(workers[1]!.posted[0]!.id, ['<new@coffer>']);
    await expect(next).resolves.toEqual([{ messageId: '<new@coffer>' }]);
  });

  it('close rejects what is still pending and terminates the worker; an answer after it is ignored', async () => {
    const { writer, workers } = writerWithFake();
    const pending = writer.writeMany([file(1)]);
    await writer.close();
    await expect(pending).rejects.toThrow('the outbox writer was closed');
    expect(workers[0]!.terminated).toBe(true);
    workers[0]!.answer(workers[0]!.posted[0]!.id, ['<after-close@coffer>']);
    await expect(pending).rejects.toThrow('the outbox writer was closed');
  });
});
