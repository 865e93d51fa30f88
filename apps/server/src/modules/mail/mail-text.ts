/**
 * Seller text in mails sent from Coffer's address (issue 39; docs/abuse.md "Text").
 *
 * A title, a file name or another text a seller typed is never trusted to be what it looks like in
 * a mail: the contract refuses control and text-direction characters in one-line fields today
 * (`isOneLine`, packages/contract/src/common.ts), but rows written before that rule, or a field whose
 * rule changes, may still hold a CR/LF (a new header or body line such as `Bcc: ...`) or a bidi
 * override that reverses what the reader sees. So every seller text is put in a mail through
 * {@link quoted}: one line, in double quotes, with every such character written out as an escape.
 */

/**
 * Characters shown as escapes: C0 controls and DEL (JSON escapes these already), C1 controls, the
 * line and paragraph separators, and the bidi embeddings, overrides, isolates and marks.
 */
const INVISIBLE = /[\u0080-\u009f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

/**
 * `text` as one quoted line for a mail's subject or body: JSON string syntax (`"a \"b\"\nc"`), so
 * quotes, backslashes and controls are escaped, plus `\uXXXX` for C1 controls, U+2028/U+2029 and bidi
 * controls (U+200E-U+200F, U+061C, U+202A-U+202E, U+2066-U+2069). Printable text (any script, emoji)
 * stays as typed.
 * @param text a seller-supplied string, e.g. a collection title or a file name
 * @returns a string with no character below U+0020, no line break and no text-direction control
 */
export function quoted(text: string): string {
  return JSON.stringify(text)
    .replace(/\u007f/g, '\\u007f')
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Whether `value` may be a mail header value: no CR, LF or other control character. The mail queue
 * flattens a subject that fails this with {@link oneLine} (a programming error: subjects are built
 * with {@link quoted}), so no header can ever be injected through a subject.
 */
export function isHeaderSafe(value: string): boolean {
  // eslint-disable-next-line no-control-regex
  return !/[\u0000-\u001f\u007f\u2028\u2029]/.test(value);
}

/** `value` with every control character and line separator replaced by a space. */
export function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f\u2028\u2029]/g, ' ');
}
