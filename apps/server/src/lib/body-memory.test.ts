import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GC_GLOBAL, MINOR_GC_EVERY_BYTES, minorGcBudget } from './body-memory';

const MiB = 1024 * 1024;
const serverDir = path.resolve(import.meta.dirname, '../..');

/**
 * Runs `noteBodyBytes(1 MiB)` `times` times in a fresh node (with `flags`) and counts the minor
 * collections a PerformanceObserver saw meanwhile. @returns {ran: collections noteBodyBytes ran, minor: observed}
 */
function inChild(flags: string[], times: number): { ran: number; minor: number } {
  const script = `
    const { PerformanceObserver, constants } = await import('node:perf_hooks');
    const { noteBodyBytes } = await import('./src/lib/body-memory.ts');
    let minor = 0;
    const obs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    });
    obs.observe({ entryTypes: ['gc'] });
    let ran = 0;
    for (let i = 0; i < ${times}; i++) if (noteBodyBytes(${MiB})) ran++;
    await new Promise((r) => setTimeout(r, 200));
    obs.disconnect();
    console.log(JSON.stringify({ ran, minor }));`;
  const res = spawnSync(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: serverDir,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (res.status !== 0) throw new Error(`the child failed (exit ${res.status}): ${res.stderr.slice(-2000)}`);
  return JSON.parse(res.stdout.trim().split('\n').pop()!) as { ran: number; minor: number };
}

describe('minor collections after upload bytes (ADR 0074)', () => {
  it('collects once each time 8 MiB more have been noted, and never without a gc function', () => {
    const calls: unknown[] = [];
    const note = minorGcBudget(MINOR_GC_EVERY_BYTES, (o) => calls.push(o));
    expect([note(3 * MiB), note(4 * MiB)]).toEqual([false, false]);
    expect(note(MiB)).toBe(true);
    expect(calls).toEqual([{ type: 'minor' }]);
    // The count starts again after a collection.
    expect(note(7 * MiB)).toBe(false);
    expect(note(2 * MiB)).toBe(true);
    expect(calls).toHaveLength(2);
    const none = minorGcBudget(MINOR_GC_EVERY_BYTES, undefined);
    expect(none(64 * MiB)).toBe(false);
  });

  it("runs V8's minor collections in a process started with npm start's flag, and none without it", { timeout: 120_000 }, () => {
    const flagged = inChild([`--expose-gc-as=${GC_GLOBAL}`], 80);
    expect(flagged.ran).toBe(10);
    expect(flagged.minor).toBeGreaterThanOrEqual(10);
    const plain = inChild([], 80);
    expect(plain.ran).toBe(0);
    // Nothing in the loop allocates enough for a collection of its own.
    expect(plain.minor).toBeLessThan(10);
  });

  it("npm start's node command carries the flags (the root package.json and apps/server's)", () => {
    for (const file of [path.join(serverDir, '../../package.json'), path.join(serverDir, 'package.json')]) {
      const start = (JSON.parse(readFileSync(file, 'utf8')) as { scripts: { start: string } }).scripts.start;
      expect(start).toMatch(
        new RegExp(`node --max-semi-space-size=8 --expose-gc-as=${GC_GLOBAL} --conditions=coffer-compiled dist/server\\.js`),
      );
    }
  });
});
