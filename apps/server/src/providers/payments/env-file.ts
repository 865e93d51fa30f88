/**
 * One way every rail reads a setting that may be a secret: from `NAME`, or from the file named by
 * `NAME_FILE` (Docker and Kubernetes secrets), trimmed. Used by the evm, tron and ton configurations
 * (docs/payments.md, README "Configuration").
 *
 * Never throws: a problem (both set, an unreadable file) is pushed onto `problems` as one line
 * naming the variable (`EVM_SEED: set either EVM_SEED or EVM_SEED_FILE, not both`), never the value.
 * @returns the value, or undefined when neither is set or a problem was found
 */
import { readFileSync } from 'node:fs';

export function fromEnvOrFile<E extends object>(env: E, name: keyof E & string, problems: string[]): string | undefined {
  const read = (key: string): unknown => (env as Record<string, unknown>)[key];
  const direct = read(name);
  const file = read(`${name}_FILE`);
  if (direct && file) {
    problems.push(`${name}: set either ${name} or ${name}_FILE, not both`);
    return undefined;
  }
  if (typeof direct === 'string' && direct) return direct.trim();
  if (typeof file !== 'string' || !file) return undefined;
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (err) {
    problems.push(`${name}_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    return undefined;
  }
}
