/**
 * Reading the server's mail outbox (`$DATA_DIR/outbox/*.eml`, the embedded default when SMTP_URL
 * is unset): find the mails sent to an address and pull the reset code out of one.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

export interface OutboxMail {
  file: string;
  to: string;
  subject: string;
  /** The body (after the first blank line), soft line breaks of quoted-printable undone. */
  body: string;
}

function header(raw: string, name: string): string {
  const m = new RegExp(`^${name}:\\s*(.*(?:\\r?\\n[ \\t].*)*)`, 'im').exec(raw);
  return m?.[1]?.replace(/\r?\n[ \t]+/g, ' ').trim() ?? '';
}

/** Every mail in the outbox, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (f) => {
      const raw = await readFile(path.join(dir, f), 'utf8');
      const split = raw.search(/\r?\n\r?\n/);
      const body =
        split >= 0
          ? raw
              .slice(split)
              .replace(/=\r?\n/g, '')
              .trim()
          : '';
      return { file: f, to: header(raw, 'To'), subject: header(raw, 'Subject'), body };
    }),
  );
}

/** Polls the outbox until a mail to `email` arrives that was not in `seen` (default: any). */
export async function waitForMail(dataDir: string, email: string, { timeoutMs = 15_000, after = 0 } = {}): Promise<OutboxMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = (await readOutbox(dataDir)).filter((m) => m.to.toLowerCase().includes(email.toLowerCase()));
    if (mails.length > after) return mails[mails.length - 1]!;
    await new Promise((r) => setTimeout(r, 200));
  }
  const present = (await readOutbox(dataDir)).map((m) => `${m.to}: ${m.subject}`);
  throw new Error(`No mail to ${email} within ${timeoutMs} ms; the outbox holds ${present.length}:\n${present.join('\n')}`);
}

/** The 6-digit reset code in a mail body. @throws Error when there is none */
export function resetCode(mail: OutboxMail): string {
  const m = /\b(\d{6})\b/.exec(mail.body);
  if (!m) throw new Error(`No 6-digit code in mail ${mail.file}:\n${mail.body}`);
  return m[1]!;
}
