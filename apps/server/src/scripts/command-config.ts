/**
 * Configuration for Coffer's command-line tools (`ledger:verify`, `evm:sweep`, `backup`/`restore`,
 * `demo:seed`): the server's own `loadConfig` (README, "Configuration"), with a bad variable turned
 * into its one-line message on stderr instead of a stack trace. Every tool then exits 2, its code
 * for "cannot run".
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
