/**
 * `npm start`'s server command is written twice: in the root package.json (`... && cd apps/server &&
 * exec node <args>`) and in apps/server/package.json (`node <args>`). The two must run the same node
 * arguments, V8 flags included (ADR 0074: `--max-semi-space-size=8`), or one way of starting the
 * server would get other memory figures than the benches measure (bench/lib/harness.ts reads the root's).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
const startOf = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { scripts: { start: string } }).scripts.start;

describe("npm start's server command", () => {
  it('runs the same node arguments from the root and from apps/server', () => {
    const root = /&& cd apps\/server && exec node (.+)$/.exec(startOf(path.join(serverDir, '../../package.json')))?.[1];
    const own = /^node (.+)$/.exec(startOf(path.join(serverDir, 'package.json')))?.[1];
    expect(root).toBeDefined();
    expect(own).toBe(root);
    expect(root!.split(/\s+/)).toEqual(
      expect.arrayContaining(['--max-semi-space-size=8', '--conditions=coffer-compiled', 'dist/server.js']),
    );
  });
});
