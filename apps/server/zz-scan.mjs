import { readFileSync } from 'node:fs';
const doc = JSON.parse(readFileSync('/tmp/apidoc/doc.json','utf8'));
const stats = { reqStr:0, reqStrNoMax:0, resStrNoMax:0, ints: {}, arrs: [] , fmts:{}};
function walk(s, where, path) {
  if (!s || typeof s !== 'object') return;
  if (Array.isArray(s)) { s.forEach((x,i)=>walk(x, where, path+'.'+i)); return; }
  if (s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))) {
    if (where==='req') stats.reqStr++;
    if (s.maxLength===undefined && !s.enum && s.const===undefined) { if (where==='req') { stats.reqStrNoMax++; if (stats.reqStrNoMax<15) console.log('REQ', path, JSON.stringify(s)); } else stats.resStrNoMax++; stats.fmts[s.format||s.pattern||'-'] = (stats.fmts[s.format||s.pattern||'-']||0)+1; }
  }
  if (s.type === 'integer') { const k = `${s.minimum}..${s.maximum} ${s.format}`; stats.ints[k]=(stats.ints[k]||0)+1; }
  if (s.type === 'array' && s.maxItems===undefined) stats.arrs.push(where+' '+path);
  for (const [k,v] of Object.entries(s)) walk(v, where, path+'.'+k);
}
for (const [p, ops] of Object.entries(doc.paths)) for (const [m, op] of Object.entries(ops)) {
  walk(op.requestBody, 'req', p); walk(op.responses, 'res', p);
}
console.log(JSON.stringify(stats, null, 1));
console.log(Object.keys(doc), doc.components && Object.keys(doc.components));
