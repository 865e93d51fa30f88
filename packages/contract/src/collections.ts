/**
 * Collections, uploads, purchases and downloads: SPEC 3 Collection, SPEC 7 collection table, DESIGN 7-8.
 * (Filled in by the collections work.)
 */
export {};
