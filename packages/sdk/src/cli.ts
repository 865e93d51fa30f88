/**
 * The `coffer` command (docs/decisions/0063-coffer-cli.md), built on the SDK. Reads the server's
 * origin from `COFFER_URL` and the bearer token from `COFFER_TOKEN`.
 *
 *   coffer upload <folder> --title <title> [--price <points>] [--desc <text>] [--draft]
 *   coffer sales list [--page <n>] [--size <n>] [--json]
 *   coffer sales export --csv
 *
 * Output goes to stdout (data) and stderr (progress, errors). Exit codes: 0 done, 1 the server
 * refused (its `reason: msg` is printed), 2 bad usage or environment.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { CofferApiError, createCofferClient, type CallData, type CofferClient } from './client';
import { toCsv, type CsvCell } from './csv';
import { uploadFile } from './upload';

/** Bad usage or environment: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export const USAGE = `Usage:
  coffer upload <folder> --title <title> [--price <points>] [--desc <text>] [--draft]
      Creates a collection from the files in <folder> (not its subfolders or hidden files),
      uploads each by multipart upload with its MD5, then publishes it (--draft keeps it unpublished).
  coffer sales list [--page <n>] [--size <n>] [--json]
      The orders of your collections, newest first.
  coffer sales export --csv
      Every order of your collections as CSV on stdout.

Environment:
  COFFER_URL    the Coffer server, e.g. https://coffer.example
  COFFER_TOKEN  a bearer token (a session token, or a personal access token)
`;

/** Where the command writes; the process's streams by default. */
export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: Record<string, string | undefined>;
}

type SaleOrder = CallData<'/api/sl/v1/my/sales'>['orders'][number];

/** The client for `COFFER_URL` and `COFFER_TOKEN`. @throws UsageError when either is missing */
function clientFrom(env: CliIo['env']): CofferClient {
  const baseUrl = env.COFFER_URL?.trim();
  const token = env.COFFER_TOKEN?.trim();
  if (!baseUrl) throw new UsageError('Set COFFER_URL to the Coffer server, e.g. https://coffer.example');
  if (!/^https?:\/\//.test(baseUrl)) throw new UsageError('COFFER_URL must start with http:// or https://');
  if (!token) throw new UsageError('Set COFFER_TOKEN to a bearer token');
  return createCofferClient({ baseUrl, token });
}

/** The regular, non-hidden files directly in `folder`, sorted by name. @throws UsageError for a missing or empty folder */
async function filesOf(folder: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch {
    throw new UsageError(`${folder} is not a folder`);
  }
  const files = entries
    .filter((e) => e.isFile() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  if (!files.length) throw new UsageError(`${folder} has no files to upload`);
  return files.map((name) => path.join(folder, name));
}

async function upload(args: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      title: { type: 'string' },
      price: { type: 'string', default: '0' },
      desc: { type: 'string', default: '' },
      draft: { type: 'boolean', default: false },
    },
  });
  const [folder, ...extra] = positionals;
  if (!folder || extra.length) throw new UsageError('Name one folder: coffer upload <folder> --title <title>');
  if (!values.title?.trim()) throw new UsageError('--title is required');
  if (!/^\d+$/.test(values.price)) throw new UsageError('--price is a whole number of points');
  const files = await filesOf(folder);
  const client = clientFrom(io.env);
  const collection = await client.call('/api/sl/v1/collection/create', {
    title: values.title,
    desc: values.desc,
    amount: Number(values.price),
    ...(values.draft ? { draft: true } : {}),
  });
  io.err(`Created collection ${collection.id} "${collection.title}"\n`);
  for (const file of files) {
    const resource = await uploadFile(client, file);
    await client.call('/api/sl/v1/collection/resource/add', { collection_id: collection.id, resource_id: resource.id });
    io.err(`Uploaded ${resource.name} (${resource.size} bytes, md5 ${resource.md5})\n`);
  }
  const final = values.draft ? collection : await client.call('/api/sl/v1/collection/publish', { collection_id: collection.id });
  io.out(`${JSON.stringify({ id: final.id, title: final.title, status: final.status, files: files.length })}\n`);
}

/** Pages of the caller's sales, `size` at a time, until the last. */
async function* allSales(client: CofferClient, size = 100): AsyncGenerator<SaleOrder> {
  for (let page = 0; ; page++) {
    const answer = await client.call('/api/sl/v1/my/sales', { paginator: { page, size } });
    yield* answer.orders;
    if (!answer.hasNextPage) return;
  }
}

const iso = (ms: number | null | undefined): string => (ms ? new Date(ms).toISOString() : '');

/** The CSV columns of `sales export --csv`, in order. */
export const SALES_CSV_HEADER = [
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
] as const;

function saleRow(o: SaleOrder): CsvCell[] {
  return [
    o.id,
    o.status,
    iso(o.paid_at),
    iso(o.refunded_at),
    o.collection_id,
    o.collection?.title ?? '',
    o.buyer.id,
    o.buyer.nickname,
    o.amount,
    o.list_price ?? o.amount,
    o.discount ?? 0,
  ];
}

async function sales(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'list') {
    const { values } = parseArgs({
      args: rest,
      options: {
        page: { type: 'string', default: '0' },
        size: { type: 'string', default: '20' },
        json: { type: 'boolean', default: false },
      },
    });
    if (!/^\d+$/.test(values.page) || !/^\d+$/.test(values.size)) throw new UsageError('--page and --size are whole numbers');
    const client = clientFrom(io.env);
    const answer = await client.call('/api/sl/v1/my/sales', {
      paginator: { page: Number(values.page), size: Number(values.size) },
    });
    if (values.json) {
      io.out(`${JSON.stringify(answer)}\n`);
      return;
    }
    for (const o of answer.orders) {
      io.out(
        `${[o.id, o.status, iso(o.paid_at), o.collection?.title ?? o.collection_id, o.buyer.nickname, `${o.amount} points`].join('\t')}\n`,
      );
    }
    io.err(`Page ${answer.page + 1} of ${Math.max(answer.totalPages, 1)} (${answer.totalCount} orders)\n`);
    return;
  }
  if (sub === 'export') {
    const { values } = parseArgs({ args: rest, options: { csv: { type: 'boolean', default: false } } });
    if (!values.csv) throw new UsageError('Choose a format: coffer sales export --csv');
    const client = clientFrom(io.env);
    const rows: CsvCell[][] = [[...SALES_CSV_HEADER]];
    for await (const o of allSales(client)) rows.push(saleRow(o));
    io.out(toCsv(rows));
    return;
  }
  throw new UsageError('coffer sales list | coffer sales export --csv');
}

/**
 * Runs `coffer <args>`. @returns the exit code (0 done, 1 refused by the server or failed, 2 usage)
 */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  try {
    if (!command || command === '--help' || command === '-h' || command === 'help') {
      io.out(USAGE);
      return command ? 0 : 2;
    }
    if (command === 'upload') await upload(rest, io);
    else if (command === 'sales') await sales(rest, io);
    else throw new UsageError(`Unknown command: ${command}`);
    return 0;
  } catch (err) {
    if (err instanceof CofferApiError) {
      io.err(`coffer: ${err.reason ?? err.code}: ${err.msg}\n`);
      return 1;
    }
    const code = (err as { code?: unknown }).code;
    if (err instanceof UsageError || (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS'))) {
      io.err(`coffer: ${(err as Error).message}\n\n${USAGE}`);
      return 2;
    }
    io.err(`coffer: ${(err as Error).message}\n`);
    return 1;
  }
}
