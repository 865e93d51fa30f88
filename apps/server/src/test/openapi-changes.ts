/**
 * Classifies the changes between two versions of the OpenAPI document as breaking or additive for
 * integrators (docs/api.md "The API document", docs/decisions/0069-api-breaking-changes.md).
 *
 * Breaking (a client built on the old document may fail):
 * - an operation removed, or a public operation that now needs a session;
 * - request: a new required field, an optional field made required, a field removed, a narrower
 *   type, an enum value removed, a tighter bound (maxLength, minLength, maximum, minimum, maxItems,
 *   minItems), a changed pattern, `null` no longer accepted;
 * - answer (the 200 body): a field removed, a required field made optional, a changed type, an enum
 *   value added (a client's exhaustive switch no longer covers it), `null` newly possible.
 * Everything else that differs (new operations, new optional request fields, new answer fields, wider
 * request bounds, texts and examples) is additive.
 *
 * Each breaking change has a stable `id` (`<kind> <METHOD> <path> <where>`); a breaking change is
 * stated when its id appears in docs/api-changes.md.
 */

type Schema = Record<string, any>;
type Doc = { paths?: Record<string, Record<string, Schema>>; components?: Schema };

export interface ApiChange {
  /** Stable identifier, e.g. `request-required-added POST /api/uc/v1/account/login body.extra`. */
  id: string;
  breaking: boolean;
  /** What changed, for a person. */
  detail: string;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

function types(s: Schema): Set<string> {
  const out = new Set<string>(Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);
  if (s.nullable === true) out.add('null');
  if (out.has('integer') && out.has('number')) out.delete('integer');
  return out;
}

/** Whether every value of type `a` is a value of some type in `b` (integer ⊂ number). */
const covered = (a: string, b: Set<string>) => b.has(a) || (a === 'integer' && b.has('number'));

type Dir = 'request' | 'response';

function compareSchema(oldS: Schema | undefined, newS: Schema | undefined, dir: Dir, op: string, at: string, out: ApiChange[]) {
  if (!oldS || !newS) return;
  const add = (kind: string, detail: string, breaking = true) => out.push({ id: `${kind} ${op} ${at}`, breaking, detail });
  const oldT = types(oldS);
  const newT = types(newS);
  if (oldT.size && newT.size) {
    if (dir === 'request') {
      const lost = [...oldT].filter((t) => !covered(t, newT));
      if (lost.length) add('request-type-narrowed', `accepts ${[...newT].join('|')}, no longer ${lost.join('|')}`);
    } else {
      const gained = [...newT].filter((t) => !covered(t, oldT));
      if (gained.length) add('response-type-changed', `may now be ${gained.join('|')} (was ${[...oldT].join('|')})`);
    }
  }
  if (Array.isArray(oldS.enum) || Array.isArray(newS.enum)) {
    const o: unknown[] = oldS.enum ?? [];
    const n: unknown[] = newS.enum ?? [];
    if (dir === 'request' && Array.isArray(newS.enum)) {
      const removed = Array.isArray(oldS.enum) ? o.filter((v) => !n.includes(v)) : ['(any value)'];
      if (removed.length) add('request-enum-narrowed', `no longer accepts ${removed.map((v) => JSON.stringify(v)).join(', ')}`);
    }
    if (dir === 'response' && Array.isArray(oldS.enum)) {
      const added = Array.isArray(newS.enum) ? n.filter((v) => !o.includes(v)) : ['(any value)'];
      if (added.length) add('response-enum-widened', `may now be ${added.map((v) => JSON.stringify(v)).join(', ')}`);
    }
  }
  if (dir === 'request') {
    const tighter = (key: string, upper: boolean) => {
      const a = oldS[key];
      const b = newS[key];
      if (b === undefined || a === b) return;
      if (a === undefined || (upper ? b < a : b > a)) add('request-bound-tightened', `${key} ${a ?? 'none'} -> ${b}`);
    };
    for (const key of ['maxLength', 'maximum', 'maxItems']) tighter(key, true);
    for (const key of ['minLength', 'minimum', 'minItems']) tighter(key, false);
    if (newS.pattern !== undefined && newS.pattern !== oldS.pattern)
      add('request-pattern-changed', `pattern ${oldS.pattern ?? 'none'} -> ${newS.pattern}`);
  }
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (JSON.stringify(oldS[k]) !== JSON.stringify(newS[k]) && (oldS[k] || newS[k])) {
      const o: Schema[] = oldS[k] ?? [];
      const n: Schema[] = newS[k] ?? [];
      if (o.length !== n.length) add(`${dir}-variants-changed`, `${k}: ${o.length} -> ${n.length} variants`);
      else o.forEach((v, i) => compareSchema(v, n[i], dir, op, `${at}.${k}[${i}]`, out));
    }
  }
  const oldP: Schema = oldS.properties ?? {};
  const newP: Schema = newS.properties ?? {};
  const oldReq = new Set<string>(oldS.required ?? []);
  const newReq = new Set<string>(newS.required ?? []);
  for (const name of Object.keys(oldP)) {
    const where = `${at}.${name}`;
    if (!(name in newP)) {
      out.push({ id: `${dir}-field-removed ${op} ${where}`, breaking: true, detail: 'field removed' });
      continue;
    }
    if (dir === 'request' && !oldReq.has(name) && newReq.has(name))
      out.push({ id: `request-field-now-required ${op} ${where}`, breaking: true, detail: 'optional field made required' });
    if (dir === 'response' && oldReq.has(name) && !newReq.has(name))
      out.push({ id: `response-field-now-optional ${op} ${where}`, breaking: true, detail: 'field may now be absent' });
    compareSchema(oldP[name], newP[name], dir, op, where, out);
  }
  for (const name of Object.keys(newP)) {
    if (name in oldP) continue;
    const where = `${at}.${name}`;
    if (dir === 'request' && newReq.has(name))
      out.push({ id: `request-required-added ${op} ${where}`, breaking: true, detail: 'new required field' });
    else out.push({ id: `${dir}-field-added ${op} ${where}`, breaking: false, detail: 'new optional field' });
  }
  if (oldS.items || newS.items) compareSchema(oldS.items, newS.items, dir, op, `${at}[]`, out);
}

const bodyOf = (op: Schema) => op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
const answerOf = (op: Schema) => op.responses?.['200']?.content?.['application/json']?.schema as Schema | undefined;
/** Callable without a session: no security requirement, or an empty one among them (`[{}, bearerAuth]`). */
const isPublic = (op: Schema) =>
  !Array.isArray(op.security) || op.security.length === 0 || op.security.some((s: Schema) => Object.keys(s).length === 0);

/** The changes from `before` to `after` (see the module comment for what counts as breaking). */
export function classifyChanges(before: Doc, after: Doc): ApiChange[] {
  const out: ApiChange[] = [];
  const paths = new Set([...Object.keys(before.paths ?? {}), ...Object.keys(after.paths ?? {})]);
  for (const path of [...paths].sort()) {
    for (const method of METHODS) {
      const o = before.paths?.[path]?.[method];
      const n = after.paths?.[path]?.[method];
      const op = `${method.toUpperCase()} ${path}`;
      if (!o && !n) continue;
      if (o && !n) {
        out.push({ id: `operation-removed ${op}`, breaking: true, detail: 'operation removed' });
        continue;
      }
      if (!o && n) {
        out.push({ id: `operation-added ${op}`, breaking: false, detail: 'new operation' });
        continue;
      }
      if (isPublic(o!) && !isPublic(n!)) out.push({ id: `security-added ${op}`, breaking: true, detail: 'now needs a session' });
      const oldBody = bodyOf(o!);
      const newBody = bodyOf(n!);
      if (!oldBody && newBody && (newBody.required ?? []).length)
        out.push({
          id: `request-required-added ${op} body`,
          breaking: true,
          detail: 'a body with required fields is now needed',
        });
      compareSchema(oldBody, newBody, 'request', op, 'body', out);
      compareSchema(answerOf(o!), answerOf(n!), 'response', op, 'answer', out);
      if (JSON.stringify(o) !== JSON.stringify(n) && !out.some((c) => c.id.includes(` ${op} `) || c.id.endsWith(` ${op}`)))
        out.push({ id: `operation-changed ${op}`, breaking: false, detail: 'texts, examples or error responses changed' });
    }
  }
  return out;
}

/** The breaking changes among `changes` whose id does not appear in `changelog` (docs/api-changes.md). */
export function unstated(changes: readonly ApiChange[], changelog: string): ApiChange[] {
  return changes.filter((c) => c.breaking && !changelog.includes(c.id));
}
