// Regenerates test-token.json from TestToken.sol with solc-js (the npm `solc` package, 0.8.26),
// which is not a dependency of Coffer: run it from a scratch directory that has it installed, e.g.
//   npm i --prefix /tmp/solc solc@0.8.26 && NODE_PATH=/tmp/solc/node_modules node compile-token.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(process.env.NODE_PATH ?? here, 'noop.js'));
const solc = require('solc');
const input = {
  language: 'Solidity',
  sources: { 'TestToken.sol': { content: readFileSync(path.join(here, 'TestToken.sol'), 'utf8') } },
  settings: { evmVersion: 'paris', optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
const c = out.contracts['TestToken.sol'].TestToken;
writeFileSync(
  path.join(here, 'test-token.json'),
  `${JSON.stringify({ compiler: `solc ${solc.version()}`, evmVersion: 'paris', abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }, null, 2)}\n`,
);
console.log('wrote test-token.json');
