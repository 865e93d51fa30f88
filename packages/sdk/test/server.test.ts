/**
 * The SDK and the `coffer` command against the real server (started once for this file, see
 * support/server.ts): the typed client creates a collection, uploads a file by multipart upload
 * with its MD5, publishes, lists sales and reads the event feed; its errors carry the envelope's
 * code, msg and reason; the committed generated types match the server's document; and `coffer`,
 * run as a child process, uploads a folder as a collection, lists sales and exports them as CSV.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CofferApiError, createCofferClient, uploadFile, type CofferClient } from '../src/index';
import { generatedFile, typesOf } from '../scripts/openapi-types';
import { startServer, type RunningServer } from './support/server';

const md5 = (data: string | Buffer) => createHash('md5').update(data).digest('hex');
const PASSWORD = 'Coffer#2026';
const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../bin/coffer.js');

let server: RunningServer;
let tmp: string;
before(async () => {
  server = await startServer();
  tmp = await mkdtemp(path.join(os.tmpdir(), 'coffer-sdk-files-'));
});
after(async () => {
  await server?.stop();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** A new account through the SDK; its session token. */
async function register(nickname = 'Seller'): Promise<{ id: string; token: string; client: CofferClient }> {
  const anonymous = createCofferClient({ baseUrl: server.url });
  const username = `sdk_${randomBytes(4).toString('hex')}`;
  const { access_token: token } = await anonymous.call('/api/uc/v1/account/register', {
    username,
    email: `${username}@example.com`,
    nickname,
    password: md5(PASSWORD),
  });
  const client = createCofferClient({ baseUrl: server.url, token });
  const me = await client.call('/api/uc/v1/account/get/me', {});
  return { id: me.id, token, client };
}

/**
 * A personal access token of `owner` with `scopes` (docs/api.md "Personal access tokens"): created
 * with the owner's session and password, as the Developer tab does; a client that sends it.
 */
async function accessToken(owner: { client: CofferClient }, scopes: string[]): Promise<{ token: string; client: CofferClient }> {
  const created = await owner.client.call('/api/uc/v1/account/token/create', {
    name: 'SDK script',
    scopes: scopes as never,
    expires_in_days: 7,
    password: md5(PASSWORD),
  });
  assert.match(created.token, /^coffer_pat_/);
  return { token: created.token, client: createCofferClient({ baseUrl: server.url, token: created.token }) };
}

/** A buyer (nickname `nickname`) tops up through the sandbox and buys `collectionId`. @returns the order id */
async function buy(collectionId: string, nickname = 'Buyer'): Promise<string> {
  const buyer = await register(nickname);
  const { bill } = await buyer.client.call('/api/uc/v1/account/deposit', { amount: '100.00', pay_currency: 'usdttrc20' });
  await buyer.client.call('/api/dev/sandbox/pay', { bill_id: bill.id });
  const order = await buyer.client.call('/api/sl/v1/collection/buy', { collection_id: collectionId });
  await buyer.client.call('/api/uc/v1/account/order/pay', { order_id: order.id });
  return order.id;
}

describe('@coffer/sdk against the running server', () => {
  it('with a personal access token: creates a collection, uploads a 6 MiB file in two parts with its MD5, publishes, lists the sale and reads the feed', async () => {
    const owner = await register();
    // The script holds only a token with the scopes it needs, never the seller's session.
    const seller = await accessToken(owner, ['collections:read', 'collections:write', 'sales:read', 'events:read']);
    const collection = await seller.client.call('/api/sl/v1/collection/create', {
      title: 'Field recordings',
      desc: 'Rain',
      amount: 25,
    });
    assert.equal(collection.status, 'Created');
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    const file = path.join(tmp, 'rain.wav');
    await writeFile(file, bytes);
    const resource = await uploadFile(seller.client, file);
    assert.deepEqual([resource.name, resource.size, resource.md5], ['rain.wav', bytes.length, md5(bytes)]);
    await seller.client.call('/api/sl/v1/collection/resource/add', { collection_id: collection.id, resource_id: resource.id });
    const published = await seller.client.call('/api/sl/v1/collection/publish', { collection_id: collection.id });
    assert.equal(published.status, 'Published');

    const orderId = await buy(collection.id);
    const sales = await seller.client.call('/api/sl/v1/my/sales', { paginator: { page: 0, size: 10 } });
    assert.equal(sales.totalCount, 1);
    assert.deepEqual(
      sales.orders.map((o) => [o.id, o.status, o.amount, o.buyer.nickname]),
      [[orderId, 'OrderStatusPaid', 25, 'Buyer']],
    );
    const feed = await seller.client.call('/api/uc/v1/account/events/list', { limit: 10 });
    assert.deepEqual(
      feed.events.map((e) => [e.type, e.data.order_id, e.data.amount]),
      [['sale', orderId, 25]],
    );
    const rest = await seller.client.call('/api/uc/v1/account/events/list', { cursor: feed.next_cursor });
    assert.deepEqual(rest.events, []);
    // Money never leaves through a token: cash-out is session only (403 INSUFFICIENT_SCOPE).
    await assert.rejects(
      seller.client.call('/api/uc/v1/account/withdraw/create', {
        user_id: owner.id,
        currency: 'usdttrc20',
        amount: '10',
        address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
        network: 'TRX',
      } as never),
      (err: unknown) => err instanceof CofferApiError && err.reason === 'INSUFFICIENT_SCOPE' && err.status === 403,
    );
  });

  it('throws CofferApiError with the envelope code, msg and reason; HTTP status kept', async () => {
    const seller = await register();
    await assert.rejects(
      seller.client.call('/api/sl/v1/collection/publish', { collection_id: '01900000-0000-7000-8000-000000000000' }),
      (err: unknown) =>
        err instanceof CofferApiError &&
        err.reason === 'NOT_FOUND' &&
        err.code !== 10000 &&
        err.status === 404 &&
        err.msg.length > 0,
    );
    const anonymous = createCofferClient({ baseUrl: server.url });
    await assert.rejects(
      anonymous.call('/api/sl/v1/my/sales', {}),
      (err: unknown) => err instanceof CofferApiError && err.reason === 'UNAUTHORIZED' && err.status === 401,
    );
    const wrongToken = createCofferClient({ baseUrl: server.url, token: 'coffer_pat_not_a_token' });
    await assert.rejects(
      wrongToken.call('/api/uc/v1/account/get/me', {}),
      (err: unknown) => err instanceof CofferApiError && err.status === 401,
    );
    await assert.rejects(
      seller.client.call('/api/sl/v1/collection/create', { title: '', amount: 1 }),
      (err: unknown) => err instanceof CofferApiError && err.reason === 'VALIDATION_FAILED' && err.status === 400,
    );
    const nowhere = createCofferClient({ baseUrl: 'http://127.0.0.1:9' });
    await assert.rejects(
      nowhere.call('/api/uc/v1/account/get/me', {}),
      (err: unknown) => err instanceof CofferApiError && err.reason === 'NETWORK',
    );
  });

  it('the committed generated types are those of the server document (npm run generate -w @coffer/sdk when this fails)', async () => {
    const document = (await (await fetch(`${server.url}/api/docs/json`)).json()) as Record<string, unknown>;
    const committed = await readFile(generatedFile, 'utf8');
    assert.ok(
      committed === (await typesOf(document)),
      'src/generated/openapi.ts is stale: run `npm run generate -w @coffer/sdk`',
    );
  });
});

/** Runs `coffer <args>` as a child process with COFFER_URL and COFFER_TOKEN. */
async function coffer(args: string[], token: string | undefined): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      env: { ...process.env, COFFER_URL: server.url, ...(token ? { COFFER_TOKEN: token } : { COFFER_TOKEN: '' }) },
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF rows). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

describe('coffer (child process) against the running server', () => {
  it('uploads a folder as a published collection, lists its sales and exports them as guarded CSV', async () => {
    const seller = await register();
    // The command runs on a personal access token (COFFER_TOKEN), as a seller's script would.
    const pat = await accessToken(seller, ['collections:read', 'collections:write', 'sales:read']);
    const folder = path.join(tmp, 'brushes');
    await import('node:fs/promises').then((fs) => fs.mkdir(path.join(folder, 'nested'), { recursive: true }));
    await writeFile(path.join(folder, 'a.txt'), 'first file\n');
    await writeFile(path.join(folder, 'b.json'), '{"b":2}\n');
    await writeFile(path.join(folder, '.hidden'), 'skipped');
    await writeFile(path.join(folder, 'nested', 'c.txt'), 'skipped too');
    const up = await coffer(['upload', folder, '--title', 'Brushes, "deluxe"', '--price', '7'], pat.token);
    assert.equal(up.code, 0, up.stderr);
    const made = JSON.parse(up.stdout) as { id: string; status: string; files: number };
    assert.deepEqual([made.status, made.files], ['Published', 2]);
    const detail = await seller.client.call('/api/sl/v1/collection/detail', { collection_id: made.id });
    assert.deepEqual(detail.resources.map((r) => [r.name, r.md5]).sort(), [
      ['a.txt', md5('first file\n')],
      ['b.json', md5('{"b":2}\n')],
    ]);
    assert.equal(detail.collection.amount, 7);

    // A buyer whose nickname is a spreadsheet formula, and one with a comma and quotes.
    const first = await buy(made.id, '=HYPERLINK("http://x")');
    const second = await buy(made.id, '-1+2, "ok"');

    const list = await coffer(['sales', 'list'], pat.token);
    assert.equal(list.code, 0, list.stderr);
    const lines = list.stdout.trim().split('\n');
    assert.deepEqual(lines.map((l) => l.split('\t')[0]).sort(), [first, second].sort());
    assert.match(list.stderr, /Page 1 of 1 \(2 orders\)/);
    const json = JSON.parse((await coffer(['sales', 'list', '--json', '--size', '1'], pat.token)).stdout) as {
      orders: unknown[];
      totalCount: number;
    };
    assert.deepEqual([json.orders.length, json.totalCount], [1, 2]);

    const csv = await coffer(['sales', 'export', '--csv'], pat.token);
    assert.equal(csv.code, 0, csv.stderr);
    assert.ok(csv.stdout.endsWith('\r\n'));
    const [header, ...rows] = parseCsv(csv.stdout);
    assert.deepEqual(header, [
      'order_id',
      'status',
      'paid_at',
      'refunded_at',
      'collection_id',
      'collection_title',
      'buyer_id',
      'buyer_nickname',
      'amount',
      'list_price',
      'discount',
    ]);
    assert.equal(rows.length, 2);
    const byOrder = new Map(rows.map((r) => [r[0], r]));
    assert.equal(byOrder.get(first)![7], `'=HYPERLINK("http://x")`);
    assert.equal(byOrder.get(second)![7], `'-1+2, "ok"`);
    assert.equal(byOrder.get(first)![5], 'Brushes, "deluxe"');
    assert.deepEqual(byOrder.get(first)!.slice(8), ['7', '7', '0']);
    assert.match(byOrder.get(first)![2]!, /^\d{4}-\d\d-\d\dT/);
  });

  it('says what is missing: no token (exit 2), a refused call (exit 1 with the reason), bad usage (exit 2)', async () => {
    const none = await coffer(['sales', 'list'], undefined);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Set COFFER_TOKEN/);
    const refused = await coffer(['sales', 'list'], 'not-a-session');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^coffer: UNAUTHORIZED: /);
    const usage = await coffer(['upload', tmp], 'x');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--title is required/);
    assert.equal((await coffer(['sales', 'export'], 'x')).code, 2);
  });
});
