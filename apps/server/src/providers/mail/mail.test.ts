import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailProvider, createOutboxMail, createSmtpMail } from './index';
import { createOutboxWriter, type OutboxWriter } from './outbox-writer';
import { outboxStamp } from './outbox';

const FROM = 'Coffer <no-reply@coffer.local>';
const message = {
  to: 'ada@example.com',
  subject: 'Your Coffer password reset code',
  text: 'Your code is 123456.\nIt expires in 10 minutes.',
};

describe('outbox', () => {
  it('writes one RFC 5322 message per mail as <time>-<id>.eml', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'coffer-mail-')), 'outbox');
    const at = Date.UTC(2026, 10, 22, 10, 35, 3, 123);
    const mail = createOutboxMail({ dir, from: FROM, now: () => at });
    const sent = await mail.send(message);

    const files = readdirSync(dir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^20261122T103503123Z-[0-9a-f-]{36}\.eml$/);
    expect(sent.location).toBe(path.join(dir, files[0]!));
    expect(statSync(sent.location).mode & 0o077).toBe(0);

    const raw = readFileSync(sent.location, 'utf8');
    const [head, body] = raw.split('\r\n\r\n');
    // Header lines end with CRLF and carry the fields RFC 5322 requires (Date, From) and more.
    expect(head).not.toMatch(/[^\r]\n/);
    expect(head).toMatch(/^From: Coffer <no-reply@coffer\.local>$/m);
    expect(head).toMatch(/^To: ada@example\.com$/m);
    expect(head).toMatch(/^Subject: Your Coffer password reset code$/m);
    expect(head).toMatch(/^Date: .+$/m);
    expect(head).toContain(`Message-ID: ${sent.messageId}`);
    expect(body).toContain('Your code is 123456.\r\nIt expires in 10 minutes.');
  });

  it('writes a batch of mails with one hand-off to the outbox writer, one result per mail', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'coffer-mail-')), 'outbox');
    const real = createOutboxWriter();
    const handOffs: number[] = [];
    const writer: OutboxWriter = {
      writeMany: (files) => (handOffs.push(files.length), real.writeMany(files)),
      close: () => real.close(),
    };
    const mail = createOutboxMail({ dir, from: FROM, writer });
    const batch = ['a', 'b', 'c'].map((n) => ({ ...message, to: `${n}@example.com` }));
    const results = await mail.sendMany!(batch);
    expect(handOffs).toEqual([3]);
    expect(readdirSync(dir)).toHaveLength(3);
    results.forEach((r, i) => {
      if (r instanceof Error) throw r;
      expect(readFileSync(r.location, 'utf8')).toMatch(new RegExp(`^To: ${batch[i]!.to}\\r$`, 'm'));
      expect(statSync(r.location).mode & 0o077).toBe(0);
    });
    await mail.close();
  });

  it('reports a file that cannot be written as that mail’s error, and the others as sent', async () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'coffer-mail-')), 'outbox');
    const real = createOutboxWriter();
    // The second mail's file lands where a directory of that name already stands (EISDIR).
    const writer: OutboxWriter = {
      writeMany: async (files) => {
        if (files.length > 1) mkdirSync(files[1]!.path, { recursive: true });
        return real.writeMany(files);
      },
      close: () => real.close(),
    };
    const mail = createOutboxMail({ dir, from: FROM, writer });
    const results = await mail.sendMany!([message, message, message]);
    expect(results[0]).not.toBeInstanceOf(Error);
    expect(results[1]).toBeInstanceOf(Error);
    expect((results[1] as NodeJS.ErrnoException).code).toBe('EISDIR');
    expect(results[2]).not.toBeInstanceOf(Error);
    await expect(mail.send(message)).resolves.toMatchObject({ location: expect.stringContaining(dir) });
    await mail.close();
  });

  it('is the provider chosen when SMTP_URL is unset', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'coffer-mail-'));
    expect(createMailProvider({ dataDir, MAIL_FROM: FROM, SMTP_URL: undefined }).kind).toBe('outbox');
  });

  it('stamps file names in sortable UTC time', () => {
    expect(outboxStamp(Date.UTC(2030, 0, 2, 3, 4, 5, 6))).toBe('20300102T030405006Z');
  });
});

describe('outbox writer', () => {
  const mailTo = (to: string) => ({ from: FROM, to, subject: 'Receipt', text: `Hello ${to}` });

  it('composes each mail, creates its file with its mode, makes a missing directory, and answers per file', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'coffer-writer-'));
    writeFileSync(path.join(root, 'plain'), 'x');
    const writer = createOutboxWriter();
    const results = await writer.writeMany([
      { path: path.join(root, 'new', 'deep', 'a.eml'), mode: 0o600, message: mailTo('a@example.com') },
      { path: path.join(root, 'plain', 'b.eml'), mode: 0o600, message: mailTo('b@example.com') }, // parent is a file
      { path: path.join(root, 'c.eml'), mode: 0o644, message: mailTo('c@example.com') },
    ]);
    expect((results[1] as NodeJS.ErrnoException).code).toBe('ENOTDIR');
    const a = readFileSync(path.join(root, 'new', 'deep', 'a.eml'), 'utf8');
    expect(a).toMatch(/^To: a@example\.com\r$/m);
    expect(a).toContain(`Message-ID: ${(results[0] as { messageId: string }).messageId}\r\n`);
    expect(a).toContain('\r\n\r\nHello a@example.com');
    expect(statSync(path.join(root, 'new', 'deep', 'a.eml')).mode & 0o777).toBe(0o600);
    expect(readFileSync(path.join(root, 'c.eml'), 'utf8')).toMatch(/^To: c@example\.com\r$/m);
    expect(statSync(path.join(root, 'c.eml')).mode & 0o777).toBe(0o644);
    expect(new Set(results.filter((r) => !(r instanceof Error)).map((r) => (r as { messageId: string }).messageId)).size).toBe(2);
    // Closed, it starts a new worker for the next write.
    await writer.close();
    const [d] = await writer.writeMany([{ path: path.join(root, 'd.eml'), mode: 0o600, message: mailTo('d@example.com') }]);
    expect(d).toMatchObject({ messageId: expect.stringMatching(/^<.+@.+>$/) });
    await writer.close();
  });
});

describe('outbox writer, stopped with a batch in flight', () => {
  it('rejects the unanswered batch (its mails are then failed attempts, retried) and starts a new worker for the next', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'coffer-writer-'));
    const writer = createOutboxWriter();
    const message = { from: FROM, to: 'a@example.com', subject: 'Receipt', text: 'hello' };
    // 3,000 mails take the worker far longer than the terminate below: the batch is unanswered.
    const big = writer.writeMany(
      Array.from({ length: 3000 }, (_, i) => ({ path: path.join(dir, `${i}.eml`), mode: 0o600, message })),
    );
    // The expectation is attached before the rejection happens (else it is an unhandled rejection).
    const rejected = expect(big).rejects.toThrow('the outbox writer was closed');
    await writer.close();
    await rejected;
    const [next] = await writer.writeMany([{ path: path.join(dir, 'next.eml'), mode: 0o600, message }]);
    expect(next).toMatchObject({ messageId: expect.stringMatching(/^<.+>$/) });
    expect(readFileSync(path.join(dir, 'next.eml'), 'utf8')).toMatch(/^To: a@example\.com\r$/m);
    await writer.close();
  });
});

describe('outbox writer lifetime', () => {
  it('keeps the process alive while a write is unanswered, and lets it exit once answered', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'coffer-writer-'));
    const writerModule = new URL('./outbox-writer.ts', import.meta.url).href;
    // A process whose only work left is a write of 2,000 mails (after a first, answered write, which
    // left the writer idle): it must not exit before the last file is there, nor hang after it.
    const script = `import(${JSON.stringify(writerModule)}).then(async (m) => {
      const writer = m.createOutboxWriter();
      const message = (i) => ({ from: 'Coffer <no-reply@coffer.local>', to: 'a@example.com', subject: 'Receipt', text: 'mail ' + i });
      await writer.writeMany([{ path: ${JSON.stringify(dir)} + '/first.eml', mode: 0o600, message: message('first') }]);
      const files = Array.from({ length: 2000 }, (_, i) => ({ path: ${JSON.stringify(dir)} + '/' + i + '.eml', mode: 0o600, message: message(i) }));
      void writer.writeMany(files);
    });`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      // Generous: under a loaded CI machine the child's TypeScript start-up alone takes seconds.
      timeout: 240_000,
    });
    expect(child.status, child.stderr).toBe(0);
    expect(readdirSync(dir)).toHaveLength(2001);
    expect(readFileSync(path.join(dir, '1999.eml'), 'utf8')).toContain('\r\n\r\nmail 1999');
  }, 300_000);
});

describe('smtp', () => {
  const received: { from: string; to: string[]; user?: string; raw: string }[] = [];
  let server: SMTPServer;
  let port: number;

  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: true,
      logger: false,
      onAuth(auth, _session, cb) {
        if (auth.username === 'coffer' && auth.password === 's3cret') return cb(null, { user: auth.username });
        return cb(new Error('Invalid username or password'));
      },
      onData(stream, session, cb) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            user: session.user as string | undefined,
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          cb();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('delivers through the SMTP server of SMTP_URL with its credentials', async () => {
    const mail = createMailProvider({ dataDir: tmpdir(), MAIL_FROM: FROM, SMTP_URL: `smtp://coffer:s3cret@127.0.0.1:${port}` });
    expect(mail.kind).toBe('smtp');
    const sent = await mail.send(message);
    await mail.close();
    expect(sent.location).toBe('smtp');
    const got = received.find((r) => r.raw.includes(sent.messageId));
    expect(got).toBeDefined();
    expect(got).toMatchObject({ from: 'no-reply@coffer.local', to: ['ada@example.com'], user: 'coffer' });
    expect(got!.raw).toMatch(/^Subject: Your Coffer password reset code\r$/m);
    expect(got!.raw).toContain('Your code is 123456.');
  });

  it('fails the send when the server refuses the credentials', async () => {
    const mail = createSmtpMail({ url: `smtp://coffer:wrong@127.0.0.1:${port}`, from: FROM });
    await expect(mail.send(message)).rejects.toThrow(/Invalid login|Invalid username/);
    await mail.close();
  });
});
