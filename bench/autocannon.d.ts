/** autocannon ships no types; the bench uses its promise API and reads the result's figures loosely. */
declare module 'autocannon';
