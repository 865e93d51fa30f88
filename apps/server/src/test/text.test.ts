/**
 * Text a careless hand or an attacker types (docs/abuse.md "Text", issue 39): a NUL or another
 * control character in any field is a 400 naming the field, never a 500 (it once was on 10 of 11
 * calls, signed-out ones among them); one-line fields hold one line without bidi overrides; file
 * names are names, not paths. Each refusal changes nothing.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, md5hex, ok, publishedCollection, put } from '../modules/collections/collections.fixtures';
import { isHeaderSafe, oneLine, quoted } from '../modules/mail/mail-text';
import { controlCharacterAt } from '../plugins/text-guard';
import { createTestApp, createUser, fund, md5, PASSWORD, type TestApp, type TestUser } from './harness';

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp();
  user = await createUser(t);
});
afterAll(() => t.close());

const refused = async (url: string, body: unknown, field: RegExp, token?: string) => {
  const res = await t.call(url, body, token);
  expect(res.status, `${url} ${JSON.stringify(body)}`).toBe(400);
  expect(res.body).toMatchObject({ code: 10001, reason: 'VALIDATION_FAILED' });
  expect(res.body.msg).toMatch(field);
  return res;
};

describe('control characters', () => {
  it('answers 400 naming the field for a NUL anywhere, signed in or not', async () => {
    await refused('/api/uc/v1/account/login', { account: 'a\u0000b', password: md5(PASSWORD) }, /^account must not contain control characters$/);
    await refused(
      '/api/uc/v1/account/register',
      { username: 'nul_user', email: 'n@example.com', password: md5(PASSWORD), nickname: 'x\u0000' },
      /^nickname must not contain control characters$/,
    );
    await refused('/sl/v1/market/collections', { paginator: { page: 0, size: 10 }, q: 'x\u0000' }, /^q must not/);
    await refused('/sl/v1/collection/create', { title: 'T', desc: 'a\u0000', amount: 1 }, /^desc must not/, user.token);
    await refused('/sl/v1/collection/detail', { collection_id: '\u0000' }, /^collection_id must not/);
    // In a nested field and in a key.
    await refused('/sl/v1/my/collections', { paginator: { page: 0, size: 10, x: 'a\u0007' } }, /^paginator\.x must not/, user.token);
    await refused('/sl/v1/my/collections', { ['pag\u0000']: 1 }, /^body must not/, user.token);
  });

  it('keeps one-line fields on one line and refuses direction overrides there; multi-line fields keep newlines', async () => {
    await refused('/sl/v1/collection/create', { title: 'Pack\r\nBcc: evil@attacker.example', amount: 1 }, /^Title must be one line/, user.token);
    await refused('/sl/v1/collection/create', { title: 'Pack\u202Eexe.txt', amount: 1 }, /^Title must be one line/, user.token);
    await refused('/api/uc/v1/account/change', { nickname: 'Ada\u2066x\u2069' }, /^Nickname must be one line/, user.token);
    await refused('/sl/v1/market/collections', { paginator: { page: 0, size: 10 }, q: 'a\u202Db' }, /Search text must be one line/);
    // Line feeds pass the body check; the title's own rule refuses them.
    await refused('/sl/v1/collection/create', { title: 'Two\nlines', amount: 1 }, /^Title must be one line/, user.token);
    const c = await ok(t, '/sl/v1/collection/create', { title: 'Plain', desc: 'Line one\nLine two\tTabbed', amount: 1 }, user.token);
    expect(c.desc).toBe('Line one\nLine two\tTabbed');
    const mine = await ok(t, '/sl/v1/my/collections', { paginator: { page: 0, size: 50 } }, user.token);
    expect(mine.collections.map((x: { title: string }) => x.title)).toEqual(['Plain']);
  });

  it('refuses file names that are paths or hide their extension', async () => {
    const data = Buffer.from('hello');
    for (const name of ['.', '..', 'C:evil.txt', 'evil\u202Etxt.exe', 'a\u2067b.txt', 'line\nbreak.txt', '../up.txt']) {
      await refused(
        '/sl/v1/upload/resource/url',
        { file_name: name, size: data.length, md5: md5hex(data), content_type: 'text/plain' },
        /file_name/,
        user.token,
      );
    }
    const good = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 'notes. v2 (final).txt', size: data.length, md5: md5hex(data), content_type: 'text/plain' },
      user.token,
    );
    expect(good.upload_id).toBeTruthy();
  });
});

describe('the body check', () => {
  it('looks only into JSON: an upload of binary bytes full of control characters goes through', async () => {
    const bytes = Buffer.alloc(256 * 1024, 0); // NULs, as any binary file holds
    const start = await ok(
      t,
      '/sl/v1/upload/resource/url',
      { file_name: 'zeros.bin', size: bytes.length, md5: md5hex(bytes), content_type: 'application/octet-stream' },
      user.token,
    );
    const res = await put(t, start.url, bytes);
    expect(res.statusCode).toBe(200);
  });

  it('ignores what JSON.parse never makes', () => {
    // A class instance (a Buffer, a stream) is not walked: its fields are no text a user typed.
    class Upload {
      name = 'x\u0000';
    }
    expect(controlCharacterAt(new Upload())).toBeNull();
    expect(controlCharacterAt({ name: 'x\u0000' })).toBe('name');
    expect(controlCharacterAt({ a: ['ok', { b: 'x\u0001' }] })).toBe('a.1.b');
  });
});

describe('seller text in mails', () => {
  it('quotes it as one line with every control and direction character written out', () => {
    expect(quoted('Pack')).toBe('"Pack"');
    expect(quoted('Pack\r\nBcc: evil@attacker.example')).toBe('"Pack\\r\\nBcc: evil@attacker.example"');
    expect(quoted('a\u202Eexe.txt\u2066\u2028\u0085\u007f')).toBe('"a\\u202eexe.txt\\u2066\\u2028\\u0085\\u007f"');
    expect(quoted('Ünïcode 日本 🎨 "q"')).toBe('"Ünïcode 日本 🎨 \\"q\\""');
    for (const s of ['x\ny', 'x\u2028y', 'x\u0000y']) expect(isHeaderSafe(s)).toBe(false);
    expect(isHeaderSafe(quoted('x\r\ny\u2028'))).toBe(true);
    expect(oneLine('a\r\nBcc: b')).toBe('a  Bcc: b');
  });

  it('never lets a title stored with a line break start a header or a line of the receipt', async () => {
    // A row written before the one-line rule (or by an operator): the contract no longer lets it in.
    const seller = await createUser(t);
    const c = await publishedCollection(t, seller, 5, 'Legacy');
    const title = 'Pack\r\nBcc: evil@attacker.example\r\n\r\nHello\u202E';
    await t.app.ctx.database.db.execute(sql`update collections set title = ${title} where id = ${c.id}`);
    const buyer = await createUser(t);
    await fund(t, buyer.id, '10');
    expect((await buyAndPay(t, buyer, c.id)).body.code).toBe(10000);
    await t.app.ctx.services.licences.mailSettled();
    const dir = path.join(t.dataDir, 'outbox');
    const mails = await Promise.all((await readdir(dir)).map((f) => readFile(path.join(dir, f), 'utf8')));
    const receipt = mails.find((m) => m.includes(`To: ${buyer.email}`) && m.includes('Thank you for buying'));
    expect(receipt).toBeDefined();
    expect(receipt).not.toMatch(/^Bcc:/im);
    expect(receipt).not.toMatch(/^Hello/m);
    expect(receipt).not.toContain('\u202E');
    // Quoted-printable folds long body lines with a soft break (`=` at the end of a line).
    expect(receipt!.replace(/=\r?\n/g, '')).toContain('Thank you for buying "Pack\\r\\nBcc: evil@attacker.example\\r\\n\\r\\nHello\\u202e" on Coffer.');
  });
});
