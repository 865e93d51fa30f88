/**
 * ADR 0037's rule, checked on PostgreSQL: every fixed statement of the purchase hot path
 * (src/db/raw.ts) reaches its rows by key even under a generic plan. A prepared statement may be
 * run with a generic plan after five executions, and that plan assumes a `jsonb_to_recordset` list
 * holds 100 rows; a statement written as a plain join of the list then scans whole tables
 * (docs/decisions/0037-batch-statement-plans.md). On a database of its own, one purchase is made
 * through the app, every table's rows are copied to 20,000 (unique columns made distinct), the
 * tables analysed; then each statement is prepared with `plan_cache_mode = force_generic_plan` and
 * its plan must hold no sequential scan. On near-empty tables a sequential scan is the cheaper plan
 * and right, so the sizes matter. A control statement written the old way must show one, so the
 * check can fail.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { declaredStatements, type Statement } from './raw';
import { publishedCollection } from '../modules/collections/collections.fixtures';
import { createTestApp, createUser, fund, onPostgres } from '../test/harness';
import { createScratchDatabase, type ScratchDatabase } from '../test/scratch-database';

/**
 * Rows each table the purchase wrote holds when the plans are taken: the size at which a plain join
 * of a 100-row list turns into a sequential scan (the control below), as the bench's tables did.
 */
const ROWS = 2_000;

if (!onPostgres) console.warn('statement-plans.pg.test.ts: skipped — set DATABASE_URL to a PostgreSQL database');
// The app's modules declare their statements when loaded; importing buildApp loads them all.
void buildApp;

/** A literal of each parameter type the statements use (the values do not matter to a generic plan). */
function dummy(type: string, client: pg.Client): string {
  if (type === 'jsonb' || type === 'json') return `${client.escapeLiteral('[]')}::${type}`;
  if (type.endsWith('[]')) return `'{}'::${type}`;
  if (type.startsWith('timestamp')) return `now()::${type}`;
  if (['integer', 'bigint', 'smallint', 'numeric'].includes(type)) return `0::${type}`;
  if (type === 'boolean') return 'false';
  if (type === 'uuid') return `'00000000-0000-0000-0000-000000000000'::uuid`;
  return `${client.escapeLiteral('x')}::${type}`;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** The tables a plan reads with a sequential scan. */
function seqScans(node: PlanNode): string[] {
  const own = node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

describe.skipIf(!onPostgres)('fixed statements under a generic plan (ADR 0037)', () => {
  let scratch: ScratchDatabase;
  let client: pg.Client;
  /** The tables filled to {@link ROWS} rows; an empty table is scanned whatever the statement (nothing to read). */
  const filled = new Set<string>();
  beforeAll(async () => {
    scratch = (await createScratchDatabase('coffer_plans'))!;
    // One purchase through the app, so every table the purchase path touches holds a valid row.
    const t = await createTestApp({ DATABASE_URL: scratch.url });
    try {
      const seller = await createUser(t);
      const buyer = await createUser(t);
      await fund(t, buyer.id, '100');
      const c = await publishedCollection(t, seller, 10);
      const order = await t.call('/sl/v1/collection/buy', { collection_id: c.id }, buyer.token);
      const paid = await t.call('/api/uc/v1/account/order/pay', { order_id: order.body.data.id }, buyer.token);
      expect(paid.body.code).toBe(10000);
      await t.app.ctx.services.auth.mailSettled();
    } finally {
      await t.close();
    }
    client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    // Copies of the rows, with foreign keys not enforced (replica role) and unique columns suffixed.
    await client.query('set session_replication_role = replica');
    const { rows: tables } = await client.query<{ name: string }>(
      "select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'",
    );
    for (const { name } of tables) {
      const { rows: count } = await client.query<{ n: number }>(`select count(*)::int as n from "${name}"`);
      if (!count[0]!.n) continue;
      const { rows: columns } = await client.query<{ col: string; type: string; uniq: boolean }>(
        `select a.attname as col, format_type(a.atttypid, a.atttypmod) as type,
           exists (select 1 from pg_index i where i.indrelid = a.attrelid and i.indisunique
             and (a.attnum = any(i.indkey) or pg_get_expr(i.indexprs, i.indrelid) ~ ('\\m' || a.attname || '\\M'))) as uniq
         from pg_attribute a where a.attrelid = $1::regclass and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''`,
        [`"${name}"`],
      );
      const exprs = columns.map(({ col, type, uniq }) => {
        if (!uniq) return `"${col}"`;
        if (type === 'uuid') return 'gen_random_uuid()';
        if (['integer', 'bigint', 'smallint'].includes(type)) return `"${col}" + g * 1000`;
        if (type === 'text' || type.startsWith('character')) return `"${col}" || '-' || g`;
        return `"${col}"`;
      });
      const copies = Math.ceil(ROWS / count[0]!.n);
      filled.add(name);
      await client.query(
        `insert into "${name}" (${columns.map((c) => `"${c.col}"`).join(', ')})
         select ${exprs.join(', ')} from "${name}", generate_series(1, ${copies}) g`,
      );
    }
    await client.query('set session_replication_role = origin');
    await client.query('analyze');
    await client.query('set plan_cache_mode = force_generic_plan');
  });
  afterAll(async () => {
    await client?.end();
    await scratch?.drop();
  });

  /** The filled tables the generic plan of `st` scans sequentially. */
  async function scansOf(st: Statement): Promise<string[]> {
    const name = `plan_${st.name}`;
    await client.query(`prepare ${name} as ${st.text}`);
    try {
      const { rows } = await client.query<{ t: string }>(
        'select unnest(parameter_types)::text as t from pg_prepared_statements where name = $1',
        [name],
      );
      const args = rows.map((r) => dummy(r.t, client));
      const explained = await client.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `explain (format json) execute ${name}${args.length ? `(${args.join(', ')})` : ''}`,
      );
      return seqScans(explained.rows[0]!['QUERY PLAN'][0]!.Plan).filter((table) => filled.has(table));
    } finally {
      await client.query(`deallocate ${name}`);
    }
  }

  it('a list joined to a table the plain way is caught (the check can fail)', async () => {
    const control = {
      name: 'control_plain_join',
      text: 'select o.id, o.status from jsonb_to_recordset($1::jsonb) as d(id text) join orders o on o.id = d.id',
    };
    expect(await scansOf(control)).toContain('orders');
  });

  it('every declared statement reaches its rows by key', async () => {
    const statements = declaredStatements();
    expect([...filled]).toEqual(
      expect.arrayContaining(['orders', 'collections', 'users', 'ledger_accounts', 'records', 'mail_queue']),
    );
    expect(statements.map((s) => s.name)).toEqual(
      expect.arrayContaining(['orders_buy_many', 'orders_lock_many_for_pay', 'ledger_post_many']),
    );
    const found: Record<string, string[]> = {};
    for (const st of statements) {
      const scans = await scansOf(st);
      if (scans.length) found[st.name] = scans;
    }
    expect(found).toEqual({});
  });
});
