#!/usr/bin/env node
// The `coffer` command: runs src/cli.ts through tsx (no build step; Node 20.19+). See packages/sdk/README.md.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli.ts');
process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
});
