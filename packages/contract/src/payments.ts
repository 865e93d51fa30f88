/**
 * Top-up (deposit) and cash-out (withdraw) calls: SPEC 3 Currency / bills, SPEC 5, SPEC 7, DESIGN 5-6.
 * (Filled in by the payments work.)
 */
export {};
