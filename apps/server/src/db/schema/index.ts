/** Every table of Coffer. Each domain keeps its tables in its own file here. */
export * from './accounts';
export * from './ledger';
export * from './collections';
export * from './payments';
export * from './evm';
export * from './ton';
export * from './tron';
export * from './nowpayments';
export * from './settings';
export * from './reserves';
export * from './events';
export * from './mail';
export * from './security';
export * from './moderation';
export * from './discounts';
export * from './reviews';
export * from './idempotency';
