import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/package.json');
const { Spectral, Document } = require('@stoplight/spectral-core');
const Parsers = require('@stoplight/spectral-parsers');
const m = require('@stoplight/spectral-owasp-ruleset'); const own = m.default ?? m;
const s = new Spectral();
s.setRuleset({ extends: [[own, 'all']] });
const doc = new Document(readFileSync('/tmp/apidoc/doc.json', 'utf8'), Parsers.Json, 'doc.json');
const res = await s.run(doc);
const by = {};
for (const r of res) { const k = r.code + ' sev' + r.severity; by[k] = (by[k] || 0) + 1; }
console.log(by);
if (process.argv[2]) for (const r of res.filter(r => r.code === process.argv[2]).slice(0, 8)) console.log(r.path.join('.'), r.message);
