/** The cash-out modal's texts and the draft step 1 hands to step 2 (see cash-out-dialog.tsx). */
import { USD_PER_CRYPTO_UNIT, WITHDRAW_ASSET, type Currency } from '@coffer/contract';
import { CONFIRM_FAILED } from '../api/confirm-withdraw';
import { CREATE_WITHDRAW_FAILED } from '../api/create-withdraw';

/**
 * product §9 "Displayed rate of 1 USD to 1 crypto unit: fixed at 1": '1 USD = 1 USDT', shown by the
 * amount in USD (step 1) and by the amount and USDT received (step 2), next to '1 USD = 100 P-coin'.
 */
export const USD_CRYPTO_RATE_TEXT = `1 USD = ${USD_PER_CRYPTO_UNIT} ${WITHDRAW_ASSET}`;

/** product §8 "Cash-out" fallbacks. */
export const CashOutTexts = {
  feeFailed: 'Failed to estimate fee',
  createFailed: CREATE_WITHDRAW_FAILED,
  confirmFailed: CONFIRM_FAILED,
  creating: 'Creating order...',
  /** product §26: the two-factor code at confirm, when two-factor sign-in is on. */
  codeLabel: 'Two-factor code',
  codeHint: 'The 6-digit code from your authenticator app, or a recovery code.',
  codeRequired: 'Enter the 6-digit code or a recovery code',
} as const;

/** What step 1 hands to step 2. */
export interface CashOutDraft {
  currency: Currency;
  usd: string;
  sendAmount: string;
  address: string;
  memo: string;
  rate: string;
}
