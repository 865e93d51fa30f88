/**
 * `npm run bench:api`: Coffer's hot reads against their limits, printed, never asserted
 * (bench/README.md "bench:api"; harness: lib/harness.ts).
 *
 * Coffer runs as `npm start` runs it (lib/harness.ts `startCoffer`: compiled server, request logs at
 * info, every variable at its default but PORT, DATABASE_URL, DATA_DIR and the per-client budget),
 * on a fresh PostgreSQL database next to `BENCH_DATABASE_URL` (or `DATABASE_URL`), dropped after;
 * without either, on the embedded PGlite (then the uncached reads have no limit to compare with).
 * The load generator (autocannon, `BENCH_CONNECTIONS` connections, default 50) runs in its own
 * process, the limits in another.
 *
 * Calls and their limits (the issue "Figures a user gets, against limits that are limits"):
 * - cached reads, `collection/detail` (visitor) and `market/collections` (page 0, size 20): a bare
 *   Fastify answering the same bytes Coffer answered, from memory;
 * - uncached reads, `get/me` with a session and with a personal access token: Fastify + one PREPARED
 *   SELECT (a pg named statement, pool of 20) of the same user row.
 * Each round measures every call on Coffer, then on its limit (BENCH_ROUNDS rounds, default 3;
 * BENCH_SECONDS per run, default 10, after a 1-second warm-up of each before the first round). Printed:
 * each round's figures with the 1-minute load average of that run, the median and the spread
 * (min-max), the ratio Coffer / limit, and the goal: reads >= 60 % of their limit with p99 <= 20 ms.
 * `BENCH_ONLY=get/me` (a substring) keeps the matching calls; `BENCH_SERVER_NODE_ARGS` adds node
 * flags to the server (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`); `BENCH_HISTORY=1` appends the
 * summary to bench/history.md; `BENCH_KEEP_DB=1` keeps the database.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  appendHistory,
  benchRounds,
  benchSeconds,
  Figures,
  LoadGenerator,
  loadText,
  machineLine,
  measured,
  mustPost,
  postJson,
  publishCollection,
  scratchDatabase,
  startCoffer,
  startLimitServer,
  Summary,
  type Coffer,
  type LimitServer,
  type ScratchDatabase,
  type SummaryRow,
} from './lib/harness';
import type { LimitRoute } from './lib/limit-server';

const SECONDS = benchSeconds(10);
const ROUNDS = benchRounds();
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Goals of the issue: reads at >= 60 % of their limit, p99 <= 20 ms. */
const GOAL_RATIO = 0.6;
const GOAL_P99_MS = 20;

/** One call measured against its limit. */
interface Call {
  name: string;
  path: string;
  body: string;
  token?: string;
  /** The limit server's route answering this call's limit. */
  limitPath: string;
  limitKind: 'same bytes from memory' | 'one prepared SELECT';
}

async function main() {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL;
  const postgres = adminUrl && /^postgres(ql)?:\/\//.test(adminUrl) ? adminUrl : undefined;
  let db: ScratchDatabase | undefined;
  let coffer: Coffer | undefined;
  let limit: LimitServer | undefined;
  const loader = new LoadGenerator();
  try {
    if (postgres) db = await scratchDatabase(postgres, 'api');
    coffer = await startCoffer({
      databaseUrl: db?.url,
      nodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean),
    });
    const base = coffer.base;

    const password = createHash('md5').update('Bench#1234').digest('hex');
    const name = `bench_${randomBytes(4).toString('hex')}`;
    const reg = await mustPost(base, '/api/uc/v1/account/register', { username: name, email: `${name}@example.com`, password });
    const token = reg.access_token as string;
    const me = await mustPost(base, '/api/uc/v1/account/get/me', {}, token);
    const pat = await mustPost(
      base,
      '/api/uc/v1/account/token/create',
      { name: 'bench', scopes: ['account:read'], expires_in_days: 7, password },
      token,
    );
    const collectionId = await publishCollection(base, token, 'Bench collection', 10);
    const detailBody = JSON.stringify({ collection_id: collectionId });
    const marketBody = JSON.stringify({ paginator: { page: 0, size: 20 } });
    // The bytes Coffer answers (read twice: the second comes from its public read cache).
    await postJson(base, '/sl/v1/collection/detail', JSON.parse(detailBody));
    const detail = await postJson(base, '/sl/v1/collection/detail', JSON.parse(detailBody));
    await postJson(base, '/sl/v1/market/collections', JSON.parse(marketBody));
    const market = await postJson(base, '/sl/v1/market/collections', JSON.parse(marketBody));
    const meAnswer = await postJson(base, '/api/uc/v1/account/get/me', {}, token);

    const routes: LimitRoute[] = [
      { path: '/detail', kind: 'bytes', body: detail.text },
      { path: '/market', kind: 'bytes', body: market.text },
    ];
    if (db)
      routes.push({
        path: '/me',
        kind: 'select',
        name: 'bench_limit_me',
        sql: 'select id, username, email, nickname, avatar, created_at from users where id = $1',
        params: [me.id],
      });
    limit = await startLimitServer({ routes, databaseUrl: db?.url, poolMax: 20 });

    const all: Call[] = [
      ...(db
        ? [
            { name: 'get/me (session)', path: '/api/uc/v1/account/get/me', body: '{}', token, limitPath: '/me', limitKind: 'one prepared SELECT' as const },
            { name: 'get/me (access token)', path: '/api/uc/v1/account/get/me', body: '{}', token: pat.token as string, limitPath: '/me', limitKind: 'one prepared SELECT' as const },
          ]
        : []),
      { name: 'collection/detail', path: '/sl/v1/collection/detail', body: detailBody, limitPath: '/detail', limitKind: 'same bytes from memory' },
      { name: 'market/collections', path: '/sl/v1/market/collections', body: marketBody, limitPath: '/market', limitKind: 'same bytes from memory' },
    ];
    const calls = all.filter((c) => !process.env.BENCH_ONLY || c.name.includes(process.env.BENCH_ONLY));

    console.log(
      `\nbench:api — ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per run (Coffer, then its limit), database ${db ? 'PostgreSQL' : 'PGlite'}, ${machineLine()}`,
    );
    console.log(
      `payload bytes: collection/detail ${detail.text.length} (limit: the same), market/collections ${market.text.length} (the same), ` +
        `get/me ${meAnswer.text.length} (limit: the users row in the envelope)`,
    );
    if (!db) console.log('note: no BENCH_DATABASE_URL/DATABASE_URL: PGlite, and get/me (its limit needs PostgreSQL) is left out');

    const job = (url: string, body: string, tok?: string, duration = SECONDS) => ({
      url,
      connections: CONNECTIONS,
      duration,
      headers: { 'content-type': 'application/json', ...(tok ? { authorization: `Bearer ${tok}` } : {}) },
      body,
    });
    for (const c of calls) {
      await loader.run(job(base + c.path, c.body, c.token, 1));
      await loader.run(job(limit.base + c.limitPath, c.body, c.token, 1));
    }

    const figures = new Figures();
    const problems: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      console.log(`round ${round} of ${ROUNDS} (load ${loadText()})`);
      for (const c of calls) {
        const cof = await measured({ server: coffer.pid, loadgen: loader.pid }, () => loader.run(job(base + c.path, c.body, c.token)));
        const lim = await measured({ server: limit.pid }, () => loader.run(job(limit!.base + c.limitPath, c.body, c.token)));
        for (const [who, m] of [['Coffer', cof], ['limit', lim]] as const)
          if (m.result.non2xx || m.result.errors) problems.push(`${c.name} ${who} round ${round}: ${m.result.non2xx} non-2xx, ${m.result.errors} errors`);
        figures.record(`${c.name}: Coffer`, 'req/s', cof.result.rps, cof.load);
        figures.record(`${c.name}: Coffer p99`, 'ms', cof.result.p99, cof.load);
        figures.record(`${c.name}: Coffer server CPU per request`, 'ms', cof.cpu.server! / Math.max(1, cof.result.total), cof.load);
        figures.record(`${c.name}: limit (${c.limitKind})`, 'req/s', lim.result.rps, lim.load);
        figures.record(`${c.name}: limit p99`, 'ms', lim.result.p99, lim.load);
        figures.record(`${c.name}: Coffer / limit`, '%', cof.result.rps / lim.result.rps, cof.load);
        console.log(
          `  ${c.name}: Coffer ${cof.result.rps.toFixed(0)} req/s p99 ${cof.result.p99} ms (load ${cof.load.toFixed(1)}), ` +
            `limit ${lim.result.rps.toFixed(0)} req/s p99 ${lim.result.p99} ms (load ${lim.load.toFixed(1)}): ${((cof.result.rps / lim.result.rps) * 100).toFixed(0)} %`,
        );
      }
    }

    const rows: SummaryRow[] = calls.map((c) => ({
      what: `${c.name} (${CONNECTIONS} conn.), limit: ${c.limitKind}`,
      coffer: `${c.name}: Coffer`,
      limit: `${c.name}: limit (${c.limitKind})`,
      ratio: `${c.name}: Coffer / limit`,
      p99: `${c.name}: Coffer p99`,
      goalRatio: GOAL_RATIO,
      goalP99: GOAL_P99_MS,
    }));
    const summary = new Summary(figures, rows);
    console.log(`\nEvery round (value, and the 1-minute load average when its run started):\n\n${figures.table()}`);
    console.log(`\nMedians of ${ROUNDS} rounds against the limits and the goals:\n\n${summary.table()}`);
    for (const p of problems) console.log(`warning: ${p}`);
    console.log(`\nload average at the end: ${loadText()}`);
    appendHistory(
      'bench:api',
      `${CONNECTIONS} connections, database ${db ? 'PostgreSQL' : 'PGlite'}, Coffer as \`npm start\` runs it.\n\n${summary.table()}\n\n<details><summary>every round</summary>\n\n${figures.table()}\n\n</details>`,
    );
  } finally {
    await loader.stop();
    await limit?.stop();
    await coffer?.stop();
    await db?.drop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
