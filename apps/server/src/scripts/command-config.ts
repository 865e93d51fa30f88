/**
 * Configuration for Coffer's command-line tools (`ledger:verify`, `evm:sweep`, `backup`/`restore`,
 * `demo:seed`): the server's own `loadConfig` (README, "Configuration"), with a bad variable turned
 * into its one-line message on stderr instead of a stack trace. Every tool then exits 2, its code
 * for "cannot run". {@link runCommand} and {@link cannotRun} are the tools' shared start and failure
 * line.
 */
import { ConfigError, loadConfig, type Config } from '../env';

/**
 * @param env the variables to read (default `process.env`)
 * @returns the configuration, or undefined after printing the ConfigError's message
 * @throws whatever else `loadConfig` throws (a bug, not a bad variable)
 */
export function commandConfig(env?: Record<string, string | undefined>): Config | undefined {
  try {
    return loadConfig(env ?? process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    return undefined;
  }
}

/**
 * The line a tool prints when it cannot run against the database: `<tool> could not run: <error>`,
 * with a hint when a table is missing (a database the server never migrated).
 */
export function cannotRun(tool: string, err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return `${tool} could not run: ${msg}${/does not exist/.test(msg) ? ' (has the server run its migrations on this database?)' : ''}`;
}

/**
 * Runs a tool's `main` and exits the process with the code it answers; an error it did not catch is
 * printed and exits with `failCode` (default 2, "cannot run").
 */
export function runCommand(main: () => Promise<number>, failCode = 2): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(failCode);
    },
  );
}
