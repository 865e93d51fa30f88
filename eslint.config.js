// ESLint flat config: typescript-eslint plus the import boundaries of docs/decisions/0009-shell-and-session.md
// (bulletproof-react's no-restricted-paths / no-cycle, server's routes -> service -> repository).
import { readdirSync, readFileSync } from 'node:fs';
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// A web feature never imports another feature (docs/decisions/0009-shell-and-session.md, bulletproof-react): shared code moves down
// into apps/web/src/components, lib or hooks, and app/ composes features. One block per directory
// of apps/web/src/features; each repeats the web block's server patterns, since a later block's
// no-restricted-imports replaces an earlier one for the files both match.
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const webFeatureBoundaries = WEB_FEATURES.map((feature) => {
  const others = WEB_FEATURES.filter((f) => f !== feature).join('|');
  const message = `features/${feature} may not import another feature; move shared code to src/components, lib or hooks, or compose in src/app.`;
  return {
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@coffer/server*', '**/apps/server/**'] },
            ...(others
              ? [
                  // '@/features/wallet/...', '../../../features/wallet/...'
                  { regex: `(^|/)features/(${others})(/|$)`, message },
                  // '../../wallet/...' (climbing out of this feature into a sibling)
                  { regex: `^(\\.\\./)+(${others})(/|$)`, message },
                ]
              : []),
          ],
        },
      ],
    },
  };
});
// Shared hooks sit below the features, as components and lib do.
webFeatureBoundaries.push({
  files: ['apps/web/src/hooks/**/*.{ts,tsx}'],
  rules: {
    'no-restricted-imports': ['error', { patterns: ['@coffer/server*', '**/apps/server/**', '**/features/**', '**/app/**'] }],
  },
});

/** The server's modules (apps/server/src/modules/<name>), read from disk so a new module is covered at once. */
const serverModules = readdirSync(new URL('./apps/server/src/modules/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/**
 * One block per server module: its files (tests aside) never import another module's repository;
 * they call that module's service, or are handed a function by the composition root (services.ts).
 * Routes files are left to the stricter block below (no repository at all): a later block's
 * no-restricted-imports would replace theirs.
 */
const moduleBoundaries = serverModules.map((name) => ({
  files: [`apps/server/src/modules/${name}/**/*.ts`],
  ignores: ['**/*.test.ts', '**/*.routes.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: serverModules
          .filter((other) => other !== name)
          .map((other) => ({
            group: [`**/${other}/*.repository`, `**/modules/${other}/*.repository`],
            message: `modules/${name} may not import modules/${other}'s repository: call its service, or take a function built in services.ts.`,
          })),
      },
    ],
  },
}));

/**
 * SQL lives in repositories: a module's service and routes files never import drizzle-orm or the
 * schema's tables (types aside), so a table is read and written only through its module's
 * repository, and another module's only through that module's service (issue 42). Which tables a
 * repository may import: `ownTablesOnly` below.
 */
const sqlInRepositories = {
  files: ['apps/server/src/modules/**/*.service.ts', 'apps/server/src/modules/**/*.routes.ts'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['drizzle-orm', 'drizzle-orm/*', '**/db/schema', '**/db/schema/*', '**/db/raw'],
            allowTypeImports: true,
            message: 'SQL and tables belong in the module\'s repository (*.repository.ts); call it, or another module\'s service.',
          },
        ],
      },
    ],
  },
};

/**
 * Which module owns each table of apps/server/src/db/schema: the module whose repositories write it.
 * A module's files other than its services and routes (its repositories, and helpers such as
 * payments-mode.ts) import no other module's table: they ask that module's service, or the
 * composition root hands them a function built from it. Provider tables belong to the payment rails
 * (src/providers), which no module reads. Every table must be listed once (checked below), so a new
 * table gets an owner when it is added.
 */
const TABLE_OWNERS = {
  account: ['users', 'sessions', 'resetCodes', 'twoFactor', 'recoveryCodes', 'loginChallenges', 'knownDevices'],
  collections: ['collections', 'catalogueChangeCounter', 'catalogueChanges'],
  deposits: ['depositBills', 'depositPayments'],
  discounts: ['discountCodes', 'discountBuyerUses'],
  events: ['sellerEventCounters', 'sellerEvents', 'webhookEndpoints', 'webhookDeliveries'],
  idempotency: ['idempotencyKeys'],
  ledger: ['ledgerAccounts', 'ledgerTransactions', 'ledgerEntries'],
  licences: ['collectionLicences', 'licenceKeys', 'licenceActivations'],
  mail: ['mailQueue'],
  moderation: ['reports', 'auditLog'],
  orders: ['orders'],
  payments: ['databaseFacts'],
  records: ['records'],
  reserves: ['reservePublications', 'reserveLeaves', 'reserveNodes'],
  reviews: ['reviews'],
  tokens: ['accessTokens'],
  uploads: ['images', 'uploads', 'resources', 'resourceVersions'],
  withdrawals: ['withdrawBills', 'withdrawPasswordFailures'],
  providers: [
    'sandboxPayouts',
    'evmAddressIndexSeq',
    'evmDepositAddresses',
    'evmScanState',
    'evmBlocks',
    'evmTransfers',
    'evmPayouts',
    'tonQueryIdSeq',
    'tonDeposits',
    'tonScanState',
    'tonTransfers',
    'tonBatches',
    'tonPayouts',
    'tronAddressIndexSeq',
    'tronDepositAddresses',
    'tronScanState',
    'tronBlocks',
    'tronTransfers',
    'tronPayouts',
    'tronTxs',
    'tronSweeps',
    'nowpaymentsPayments',
    'nowpaymentsPayouts',
    'nowpaymentsReviews',
  ],
};

/**
 * The foreign tables repositories still read, by file (under apps/server/src/modules): joins that
 * keep a list one query (a collection's seller columns, a buyer's orders), and the moderation
 * module's operator actions. Each is a debt: move the read behind the owner's service, then drop
 * it here. Nothing may be added to this list.
 *
 * Kept on purpose: tokens.repository.ts `findLive` is the bearer lookup of every call made with an
 * access token (cache misses of tokens.service.ts `resolve`): one indexed read by hash joined to the
 * owner's row, which refuses a suspended or deleted user's token in the same statement. Asking the
 * account service instead would add a second query to that hot read path, so the join stays (the
 * row lock of token/create is the account module's, lent through services.ts).
 */
const FOREIGN_TABLE_READS = {
  'collections/collections.repository.ts': ['orders', 'users'],
  'moderation/moderation.repository.ts': ['accessTokens', 'collections', 'sessions', 'users'],
  'orders/orders.repository.ts': ['collections', 'users'],
  'orders/listings.repository.ts': ['users'],
  'reviews/reviews.repository.ts': ['users'],
  'tokens/tokens.repository.ts': ['users'],
};

{
  // Every table of the schema has exactly one owner in TABLE_OWNERS.
  const schemaDir = new URL('./apps/server/src/db/schema/', import.meta.url);
  const tables = readdirSync(schemaDir)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .flatMap((f) => [...readFileSync(new URL(f, schemaDir), 'utf8').matchAll(/^export const (\w+)\s*=/gm)].map((m) => m[1]));
  const owned = Object.values(TABLE_OWNERS).flat();
  const unowned = tables.filter((t) => !owned.includes(t));
  const doubled = owned.filter((t, i) => owned.indexOf(t) !== i);
  const unknown = owned.filter((t) => !tables.includes(t));
  if (unowned.length || doubled.length || unknown.length) {
    throw new Error(
      `eslint.config.js TABLE_OWNERS: give every table of src/db/schema one owner (unowned: ${unowned.join(', ') || '-'}; listed twice: ${doubled.join(', ') || '-'}; not a table: ${unknown.join(', ') || '-'})`,
    );
  }
}

/**
 * One block per file of a server module that may hold SQL (tests, services and routes aside: those
 * import no table at all, `sqlInRepositories`): it may import its own module's tables from
 * db/schema (types aside), not another module's. Uses the typescript-eslint rule, so the module
 * boundaries' `no-restricted-imports` above still applies to the same files.
 */
const ownTablesOnly = serverModules.flatMap((name) => {
  const dir = new URL(`./apps/server/src/modules/${name}/`, import.meta.url);
  const files = readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !/\.(test|service|routes)\.ts$/.test(f) && !f.endsWith('.d.ts'));
  return files.map((file) => {
    const allowed = [...(TABLE_OWNERS[name] ?? []), ...(FOREIGN_TABLE_READS[`${name}/${file}`] ?? [])];
    const foreign = Object.values(TABLE_OWNERS)
      .flat()
      .filter((t) => !allowed.includes(t));
    return {
      files: [`apps/server/src/modules/${name}/${file}`],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                group: ['**/db/schema', '**/db/schema/*'],
                importNames: foreign,
                allowTypeImports: true,
                message: `modules/${name} may import only its own tables (eslint.config.js TABLE_OWNERS): ask the owning module's service, or take a function built in services.ts.`,
              },
            ],
          },
        ],
      },
    };
  });
});

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/data/**', '**/migrations/**', 'e2e/screenshots/**', '**/*.d.ts', 'packages/sdk/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // No import cycles (type-only imports aside) in the server, the contract and the web app.
    // Resolution: TypeScript's (eslint-import-resolver-typescript), with each package's tsconfig, so
    // the web's `@/` paths and the workspace packages' exports are followed like relative imports.
    files: ['apps/server/**/*.ts', 'packages/contract/**/*.ts', 'apps/web/**/*.{ts,tsx}'],
    plugins: { import: importPlugin },
    settings: {
      'import/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import/resolver': {
        typescript: {
          noWarnOnMultipleProjects: true,
          project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'packages/contract/tsconfig.json'],
        },
      },
      // Packages are not parsed: a cycle through node_modules is not ours, and parsing them is slow.
      'import/ignore': ['node_modules'],
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // contract depends on nothing of ours.
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@coffer/server*', '@coffer/web*', '**/apps/**'] }],
    },
  },
  {
    // Web never imports server source; features never import other features (move shared code down).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@coffer/server*', '**/apps/server/**'] }],
    },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/features/**', '**/app/**'] }],
    },
  },
  ...webFeatureBoundaries,
  {
    // A module may call another module's service, never its repository.
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/*.repository', '**/db/schema/**'] }],
    },
  },
  ...moduleBoundaries,
  sqlInRepositories,
  ...ownTablesOnly,
  // The server's layers point one way (docs/decisions/0066-server-layers.md): lib <- db <- providers
  // <- plugins <- modules <- the composition root (app.ts, services.ts, server.ts, worker-runner.ts).
  // Tests may reach up (they build the app).
  {
    // The composition root wires services and providers: what it needs of a module's tables is a
    // function of that module's service (e.g. orders.service.ts's createOrderReads), never its repository.
    files: [
      'apps/server/src/app.ts',
      'apps/server/src/services.ts',
      'apps/server/src/server.ts',
      'apps/server/src/worker-runner.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/*.repository', '**/*.repository.ts', '**/*.repository.js'],
              message:
                'The composition root imports services and providers, never a repository: add a function to the owning module\'s service.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/lib/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/db/**',
                '**/providers/**',
                '**/plugins/**',
                '**/modules/**',
                '**/app',
                '**/services',
                '**/server',
                '**/worker-runner',
                '**/env',
              ],
              message: 'lib/ is the bottom layer: it imports nothing else of the server.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/db/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/db/scripts/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/providers/**',
                '**/plugins/**',
                '**/modules/**',
                '**/app',
                '**/services',
                '**/server',
                '**/worker-runner',
              ],
              message: 'db/ sits above lib/ only.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**', '**/plugins/**', '**/app', '**/services', '**/server', '**/worker-runner'],
              message:
                'providers/ talk to the outside world for the modules; they never import modules, plugins or the composition root.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/plugins/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/modules/**', '**/providers/**', '**/app', '**/services', '**/server', '**/worker-runner'],
              message:
                'plugins/ are HTTP machinery under the modules: what they need from a module or provider is passed in by app.ts.',
            },
          ],
        },
      ],
    },
  },
);
