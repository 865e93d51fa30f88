/**
 * Coffer's zod-free entry, `@coffer/contract/constants` (docs/decisions/0016-web-entry-budget.md):
 * the enums, the SPEC 9 constants and the money helpers (decimal strings, big.js), without the
 * zod schemas. The web's first screen imports this entry so that zod loads only with the pages
 * and forms that validate; the schemas stay in the main entry (`@coffer/contract`), which
 * re-exports everything here too.
 */
export * from './enums';
export * from './constants';
export * from './money';
export * from './envelope-codes';
