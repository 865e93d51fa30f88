/**
 * What the OpenAPI document says beyond zod's JSON Schema (docs/api.md "The API document",
 * docs/decisions/0068-api-document-linted.md): size bounds on every string, integer and array, and
 * examples generated from the schemas.
 *
 * Bounds, most specific first (the zod schema's own bound always wins):
 * - string: `maxLength` from zod; else the longest string an anchored `pattern` allows
 *   ({@link patternMaxLength}); else {@link TEXT_CEILING} (no string longer than a request body
 *   enters Coffer).
 * - integer: `minimum`/`maximum` from zod; else the JSON-safe integer range; `format` int32 when the
 *   range fits in 32 bits, else int64.
 * - array: `maxItems` from zod; else the page size limit of the call's `paginator` for the list of a
 *   paged answer; else {@link ARRAY_CEILING}.
 */
import { MAX_PAGE_SIZE, MAX_UPLOAD_PARTS } from '@coffer/contract';

/** Bytes of the largest request body (app.ts `bodyLimit`): no string longer than this enters Coffer. */
export const TEXT_CEILING = 1024 * 1024;
/** Ceiling of a list with no bound of its own: the most parts an upload has (MAX_UPLOAD_PARTS). */
export const ARRAY_CEILING = MAX_UPLOAD_PARTS;
const SAFE = Number.MAX_SAFE_INTEGER;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

type Schema = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// A small reader of the regular expressions zod writes into `pattern` (classes, escapes, groups,
// alternation, quantifiers): the longest match and one matching string.

interface Rx {
  /** Longest match in characters (Infinity when unbounded). */
  max: number;
  /** One shortest matching string. */
  sample: string;
  /** Zero-width anchors at the ends of this sequence. */
  start?: boolean;
  end?: boolean;
}

class Reader {
  i = 0;
  constructor(readonly src: string) {}
  peek(): string | undefined {
    return this.src[this.i];
  }
  alternation(): Rx[] {
    const alts = [this.sequence()];
    while (this.peek() === '|') {
      this.i++;
      alts.push(this.sequence());
    }
    return alts;
  }
  sequence(): Rx {
    let max = 0;
    let sample = '';
    let start = false;
    let end = false;
    let first = true;
    while (this.i < this.src.length && this.peek() !== '|' && this.peek() !== ')') {
      const c = this.peek()!;
      if (c === '^') {
        this.i++;
        if (first) start = true;
        continue;
      }
      if (c === '$') {
        this.i++;
        end = this.i >= this.src.length || this.peek() === '|' || this.peek() === ')';
        continue;
      }
      first = false;
      const atom = this.atom();
      const [lo, hi] = this.quantifier();
      max += atom.max === 0 ? 0 : hi * atom.max;
      sample += atom.sample.repeat(lo);
    }
    return { max, sample, start, end };
  }
  atom(): Rx {
    const c = this.src[this.i++]!;
    if (c === '(') {
      if (this.peek() === '?') {
        const kind = this.src.slice(this.i, this.i + 3);
        if (kind.startsWith('?:')) this.i += 2;
        else if (kind.startsWith('?=') || kind.startsWith('?!')) {
          this.i += 2;
          this.alternation();
          this.i++;
          return { max: 0, sample: '' };
        } else throw new Error(`unsupported group in /${this.src}/`);
      }
      const alts = this.alternation();
      if (this.src[this.i++] !== ')') throw new Error(`unclosed group in /${this.src}/`);
      return { max: Math.max(...alts.map((a) => a.max)), sample: alts[0]!.sample };
    }
    if (c === '[') {
      const close = this.src.indexOf(']', this.i + (this.peek() === ']' ? 1 : 0));
      if (close < 0) throw new Error(`unclosed class in /${this.src}/`);
      const body = this.src.slice(this.i, close);
      this.i = close + 1;
      return { max: 1, sample: classSample(body) };
    }
    if (c === '\\') {
      const e = this.src[this.i++]!;
      const map: Record<string, string> = { d: '0', w: 'a', s: ' ', D: 'a', W: '-', S: 'a', n: '\n', t: '\t' };
      return { max: 1, sample: map[e] ?? e };
    }
    if (c === '.') return { max: 1, sample: 'a' };
    return { max: 1, sample: c };
  }
  quantifier(): [number, number] {
    const c = this.peek();
    let q: [number, number] = [1, 1];
    if (c === '?') q = [0, 1];
    else if (c === '*') q = [0, Infinity];
    else if (c === '+') q = [1, Infinity];
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i));
      if (!m) return q;
      this.i += m[0].length;
      const lo = Number(m[1]);
      const hi = m[2] === undefined ? lo : m[3] === '' ? Infinity : Number(m[3]);
      if (this.peek() === '?') this.i++;
      return [lo, hi];
    } else return q;
    this.i++;
    if (this.peek() === '?') this.i++;
    return q;
  }
}

/** One character of a `[...]` class: its first member (or a letter outside a negated class). */
function classSample(body: string): string {
  if (body.startsWith('^')) {
    for (const ch of 'aA0_-') if (!body.includes(ch)) return ch;
    return '~';
  }
  if (body.startsWith('\\')) return ({ d: '0', w: 'a', s: ' ' } as Record<string, string>)[body[1]!] ?? body[1]!;
  return body[0]!;
}

function readPattern(pattern: string): Rx[] | null {
  try {
    const r = new Reader(pattern);
    const alts = r.alternation();
    return r.i === pattern.length ? alts : null;
  } catch {
    return null;
  }
}

/**
 * The longest string `pattern` matches, when every alternative is anchored at both ends and bounded;
 * null otherwise (e.g. `^\d+$`, or a pattern that may match inside a longer string).
 */
export function patternMaxLength(pattern: string): number | null {
  const alts = readPattern(pattern);
  if (!alts || !alts.every((a) => a.start && a.end)) return null;
  const max = Math.max(...alts.map((a) => a.max));
  return Number.isFinite(max) ? max : null;
}

/** A short string `pattern` matches (its first alternative, each quantifier at its minimum), or null. */
export function patternSample(pattern: string): string | null {
  const alts = readPattern(pattern);
  if (!alts) return null;
  const sample = alts[0]!.sample;
  return new RegExp(pattern).test(sample) ? sample : null;
}

// ---------------------------------------------------------------------------------------------
// Bounds

const typeOf = (s: Schema): string | undefined => (Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type);

/**
 * Adds the missing bounds to `schema` and every schema inside it, in place (see the module comment).
 * `pageMax` is the largest page size of the call's paginator, when the call is paged.
 */
export function boundSchema(schema: unknown, pageMax: number | null = null, pagedList = false): void {
  if (!schema || typeof schema !== 'object') return;
  if (Array.isArray(schema)) {
    for (const s of schema) boundSchema(s, pageMax);
    return;
  }
  const s = schema as Schema;
  const type = typeOf(s);
  if (type === 'string' && s.maxLength === undefined && s.enum === undefined && s.const === undefined) {
    s.maxLength = (typeof s.pattern === 'string' ? patternMaxLength(s.pattern) : null) ?? TEXT_CEILING;
  }
  if (type === 'integer') {
    s.minimum ??= -SAFE;
    s.maximum ??= SAFE;
    s.format ??= s.minimum >= INT32_MIN && s.maximum <= INT32_MAX ? 'int32' : 'int64';
  }
  if (type === 'array' && s.maxItems === undefined) {
    // The list of a paged answer (a property beside `hasNextPage`) holds at most one page.
    s.maxItems = pageMax !== null && pagedList ? pageMax : ARRAY_CEILING;
  }
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && v && typeof v === 'object') {
      const pagedHere = 'hasNextPage' in v;
      for (const prop of Object.values(v as Schema)) boundSchema(prop, pageMax, pagedHere);
    } else if (k !== 'enum' && k !== 'const' && k !== 'default' && k !== 'example' && k !== 'examples') {
      boundSchema(v, pageMax);
    }
  }
}

/** The largest `paginator.size` (or `size`) a request body allows, or null when the call is not paged. */
export function pageMaxOf(body: Schema | undefined): number | null {
  const props = body?.properties as Schema | undefined;
  const size = props?.paginator?.properties?.size ?? props?.size;
  if (!size || (props?.paginator === undefined && props?.page === undefined)) return null;
  return typeof size.maximum === 'number' ? size.maximum : MAX_PAGE_SIZE;
}

// ---------------------------------------------------------------------------------------------
// Examples

const UUIDS = ['6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b', '0b7e4d2c-9a1f-4c3b-8d5e-6f7a8b9c0d1e'] as const;

/** Example values by property name, used when they fit the property's schema (a small table). */
const BY_NAME: Record<string, unknown> = {
  username: 'ada_lovelace',
  account: 'ada_lovelace',
  email: 'ada@example.com',
  nickname: 'Ada',
  password: '5f4dcc3b5aa765d61d8327deb882cf99',
  password_old: '5f4dcc3b5aa765d61d8327deb882cf99',
  password_new: '7c6a180b36896a0a8c02787eeafb0e4c',
  code: '123456',
  title: 'Watercolour brushes',
  desc: 'Twenty hand-made watercolour brushes for painting apps.',
  name: 'brushes.zip',
  filename: 'brushes.zip',
  file_name: 'brushes.zip',
  content_type: 'application/zip',
  md5: '9e107d9d372bb6826bd81d3542a419d6',
  size: 1048576,
  currency_amount: '10',
  q: 'brushes',
  reason: 'Spam',
  msg: 'Success',
  url: 'https://example.com/hooks/coffer',
  banner: 'https://coffer.example/media/6f1c2a8e-3b4d-4e5f-8a9b-0c1d2e3f4a5b',
  avatar: 'https://coffer.example/media/0b7e4d2c-9a1f-4c3b-8d5e-6f7a8b9c0d1e',
  currency: 'USDT',
  network: 'TRX',
  address: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
  amount: 100,
  created_at: 1764374400,
  updated_at: 1764374400,
};

/** Whether `value` fits the simple constraints of `s` that the sampler can break. */
function fits(value: unknown, s: Schema): boolean {
  const type = typeOf(s);
  if (s.enum && !s.enum.includes(value)) return false;
  if (type === 'string') {
    if (typeof value !== 'string') return false;
    if (s.maxLength !== undefined && value.length > s.maxLength) return false;
    if (s.minLength !== undefined && value.length < s.minLength) return false;
    if (s.pattern && !new RegExp(s.pattern).test(value)) return false;
    if (s.format === 'uuid' && !/^[0-9a-f-]{36}$/.test(value)) return false;
    if (s.format === 'email' && !value.includes('@')) return false;
    return true;
  }
  if (type === 'integer' || type === 'number') {
    if (typeof value !== 'number' || (type === 'integer' && !Number.isInteger(value))) return false;
    if (s.minimum !== undefined && value < s.minimum) return false;
    if (s.maximum !== undefined && value > s.maximum) return false;
    if (s.exclusiveMinimum !== undefined && typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) return false;
    return true;
  }
  return false;
}

function stringSample(s: Schema, name: string | undefined): string {
  if (name?.endsWith('_id') || name === 'id') {
    const id = name === 'id' ? UUIDS[0] : UUIDS[1];
    if (fits(id, s)) return id;
  }
  if (s.format === 'date-time') return '2026-11-29T00:00:00.000Z';
  if (s.format === 'email') return 'ada@example.com';
  if (s.format === 'uuid') return UUIDS[0];
  if (s.format === 'uri' || s.format === 'url') return 'https://example.com/';
  if (typeof s.pattern === 'string') {
    const fromPattern = patternSample(s.pattern);
    if (fromPattern !== null) return fromPattern;
  }
  const min = s.minLength ?? 0;
  const base = 'example';
  return (base.length >= min ? base : base + 'x'.repeat(min - base.length)).slice(0, s.maxLength ?? Infinity);
}

/**
 * An example value of `schema`: its `default`/`example`, the first `enum`/`const`, a {@link BY_NAME}
 * value that fits, else a value built from the type and bounds (every object property, one item per
 * list, strings from `pattern`/`format`, numbers at the lower bound or 1).
 */
export function sampleOf(schema: unknown, name?: string, depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 12) return null;
  const s = schema as Schema;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(s[k])) {
      const branch = (s[k] as Schema[]).find((b) => b.type !== 'null') ?? s[k][0];
      return sampleOf(branch, name, depth + 1);
    }
  }
  if (Array.isArray(s.allOf)) {
    return Object.assign({}, ...s.allOf.map((b: Schema) => sampleOf(b, name, depth + 1)));
  }
  const type = typeOf(s) ?? (s.properties ? 'object' : undefined);
  if (name !== undefined && Object.hasOwn(BY_NAME, name) && fits(BY_NAME[name], s)) return BY_NAME[name];
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries((s.properties ?? {}) as Schema)) out[k] = sampleOf(v, k, depth + 1);
      return out;
    }
    case 'array': {
      const n = Math.max(1, s.minItems ?? 0);
      return Array.from({ length: n }, () => sampleOf(s.items, undefined, depth + 1));
    }
    case 'string':
      return stringSample(s, name);
    case 'integer':
    case 'number': {
      const lo = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : s.minimum;
      let v = lo !== undefined && lo > 1 ? lo : lo !== undefined && lo <= 1 && (s.maximum ?? 1) >= 1 ? 1 : (lo ?? 1);
      if (s.maximum !== undefined && v > s.maximum) v = s.maximum;
      return v;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return 'example';
  }
}
