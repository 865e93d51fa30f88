/**
 * Coffer's zod-free entry, `@coffer/contract/constants` (docs/decisions/0016-web-entry-budget.md):
 * the enums, the product §9 constants, the money helpers (decimal strings, big.js), the upload rules
 * (`partSizeFor`) and the zod-free half of the endpoint table (`ENDPOINTS`, ADR 0018), without the
 * zod schemas. The web's first screen imports this entry so that zod loads only with the pages
 * and forms that validate; the schemas stay in the main entry (`@coffer/contract`), which
 * re-exports everything here too. The Merkle sum tree (and its SHA-256) has its own entry,
 * `@coffer/contract/merkle-sum`, for the one page that verifies a proof (ADR 0044).
 */
export * from './enums';
export * from './constants';
export * from './money';
export * from './envelope-codes';
export * from './upload-rules';
export * from './review-rules';
export * from './endpoints';
export * from './token-scopes';
