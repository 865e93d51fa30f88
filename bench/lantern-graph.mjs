/**
 * Lighthouse's simulated FCP and LCP for one saved page load, with the simulated start and end of
 * every request and task on each metric's path (ADR 0044): what the phone's first screen waits for
 * in the figures `bench:web` prints.
 *
 *   BENCH_TRACE_DIR=/tmp/traces npm run bench:web
 *   node bench/lantern-graph.mjs /tmp/traces/<page>-<n>.trace.json /tmp/traces/<page>-<n>.artifacts.json [FCP|LCP]
 *
 * Uses Lighthouse's own computed artifacts (the installed lighthouse package), so the figures are the
 * ones its report gives for that load. Times in ms from the navigation; "obs" is a task's observed
 * duration on this machine (the simulation multiplies it by the CPU slowdown).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const [traceFile, artifactsFile, only] = process.argv.slice(2);
if (!traceFile || !artifactsFile) {
  console.error('usage: node bench/lantern-graph.mjs <trace.json> <artifacts.json> [FCP|LCP]');
  process.exit(2);
}
const metrics = path.join(path.dirname(createRequire(import.meta.url).resolve('lighthouse')), 'computed/metrics');
const { LanternFirstContentfulPaint } = await import(path.join(metrics, 'lantern-first-contentful-paint.js'));
const { LanternLargestContentfulPaint } = await import(path.join(metrics, 'lantern-largest-contentful-paint.js'));
const trace = JSON.parse(readFileSync(traceFile, 'utf8'));
const a = JSON.parse(readFileSync(artifactsFile, 'utf8'));
const data = { trace, devtoolsLog: a.DevtoolsLog, gatherContext: a.GatherContext, settings: a.settings, URL: a.URL, SourceMaps: [], simulator: null };
const context = { computedCache: new Map() };
for (const [name, metric] of [
  ['FCP', LanternFirstContentfulPaint],
  ['LCP', LanternLargestContentfulPaint],
]) {
  const r = await metric.request(data, context);
  const ms = (v) => String(Math.round(v)).padStart(5);
  console.log(`== ${name} ${Math.round(r.timing)} ms (optimistic ${Math.round(r.optimisticEstimate.timeInMs)}, pessimistic ${Math.round(r.pessimisticEstimate.timeInMs)})`);
  if (only && only !== name) continue;
  for (const [kind, estimate] of [
    ['optimistic', r.optimisticEstimate],
    ['pessimistic', r.pessimisticEstimate],
  ]) {
    console.log(`  -- ${kind}`);
    const rows = [...estimate.nodeTimings.entries()].sort((x, y) => x[1].startTime - y[1].startTime);
    for (const [node, t] of rows) {
      const what =
        node.type === 'network'
          ? `${node.request.url.replace(/^https?:\/\/[^/]+/, '')} ${node.request.transferSize} B ${node.request.priority}`
          : `task ${(node.duration / 1000).toFixed(2)} ms obs`;
      console.log(`    ${ms(t.startTime)} -> ${ms(t.endTime)}  ${what}`);
    }
  }
}
