/**
 * Every status and category of product §4 and §13/§17, as const objects with their union types.
 * The strings are the wire values; display labels live in the web app.
 */

/** product §4, Deposit bill status. `DepositStatusExpired` is Coffer's "any other value" (failed, 'Order Expired'). */
export const DepositStatus = {
  Success: 'DepositStatusSuccess',
  Processing: 'DepositStatusProcessing',
  Expired: 'DepositStatusExpired',
} as const;
export type DepositStatus = (typeof DepositStatus)[keyof typeof DepositStatus];

/** product §4, Withdraw bill status. `Pending` awaits the password confirmation; `Processing` is with the payout job. */
export const WithdrawStatus = {
  Pending: 'WithdrawStatusPending',
  Processing: 'WithdrawStatusProcessing',
  Success: 'WithdrawStatusSuccess',
  Failure: 'WithdrawStatusFailure',
  Refunded: 'WithdrawStatusRefunded',
  Expired: 'WithdrawStatusExpired',
} as const;
export type WithdrawStatus = (typeof WithdrawStatus)[keyof typeof WithdrawStatus];

/** product §4, Record status badges. */
export const RecordStatus = {
  Pending: 'RecordStatusPending',
  Success: 'RecordStatusSuccess',
  Failure: 'RecordStatusFailure',
  Refunded: 'RecordStatusRefunded',
} as const;
export type RecordStatus = (typeof RecordStatus)[keyof typeof RecordStatus];
export const RECORD_STATUSES = Object.values(RecordStatus) as [RecordStatus, ...RecordStatus[]];

/** product §7, record list categories. */
export const RecordCate = {
  All: 'RecordCateAll',
  Income: 'RecordCateIncome',
  Outgoing: 'RecordCateOutgoing',
} as const;
export type RecordCate = (typeof RecordCate)[keyof typeof RecordCate];
export const RECORD_CATES = Object.values(RecordCate) as [RecordCate, ...RecordCate[]];

/** product §13, transaction record types. */
export const RecordType = {
  TopUp: 'TopUp',
  CashOut: 'CashOut',
  Purchase: 'Purchase',
  Sale: 'Sale',
  Refund: 'Refund',
} as const;
export type RecordType = (typeof RecordType)[keyof typeof RecordType];
export const RECORD_TYPES = Object.values(RecordType) as [RecordType, ...RecordType[]];

/** product §3, record direction. */
export const Direction = {
  Incoming: 'Incoming',
  Outgoing: 'Outgoing',
} as const;
export type Direction = (typeof Direction)[keyof typeof Direction];
export const DIRECTIONS = Object.values(Direction) as [Direction, ...Direction[]];

/** product §4, Collection status. `Created` is the default for unknown values. */
export const CollectionStatus = {
  Created: 'Created',
  Published: 'Published',
  Draft: 'Draft',
  Archived: 'Archived',
  Deleted: 'Deleted',
} as const;
export type CollectionStatus = (typeof CollectionStatus)[keyof typeof CollectionStatus];
export const COLLECTION_STATUSES = Object.values(CollectionStatus) as [CollectionStatus, ...CollectionStatus[]];

/** product §17, purchase order status. */
export const OrderStatus = {
  Pending: 'OrderStatusPending',
  Paid: 'OrderStatusPaid',
  /** Refunded in full (product §25): the buyer's access is gone; final. */
  Refunded: 'OrderStatusRefunded',
} as const;
export type OrderStatus = (typeof OrderStatus)[keyof typeof OrderStatus];

/** product §17, market list sort orders; `rating` (product §29): best average first, unrated last. */
export const MarketSort = {
  Newest: 'newest',
  Popular: 'popular',
  PriceAsc: 'price_asc',
  PriceDesc: 'price_desc',
  Rating: 'rating',
} as const;
export type MarketSort = (typeof MarketSort)[keyof typeof MarketSort];
export const MARKET_SORTS = Object.values(MarketSort) as [MarketSort, ...MarketSort[]];
