/**
 * Chooses the payment provider once, at boot, from `PAYMENTS` (DESIGN 2, STYLE "providers are
 * chosen once"). `sandbox` is built in; `evm` and `nowpayments` plug in here with their own
 * variables (docs/payments.md) and implement the same {@link PaymentProvider} interface.
 */
import type { Db } from '../../db/client';
import { ConfigError, type Config } from '../../env';
import type { Clock } from '../../lib/clock';
import { createSandboxProvider } from './sandbox';
import type { PaymentProvider } from './types';

export type { PaymentProvider, PayoutOutcome, PayoutRequest, ProviderCurrency, ReceivedPayment } from './types';
export { isFailingPayoutAddress, type SandboxProvider } from './sandbox';

/**
 * @throws ConfigError when the selected provider is not available in this build
 */
export function createPaymentProvider(config: Config, deps: { db: Db; clock: Clock }): PaymentProvider {
  switch (config.PAYMENTS) {
    case 'sandbox':
      return createSandboxProvider({ db: deps.db, clock: deps.clock, prices: config.SANDBOX_PRICES, payoutFees: config.SANDBOX_PAYOUT_FEES });
    default:
      throw new ConfigError(`Invalid configuration:\nPAYMENTS: the ${config.PAYMENTS} provider is not available yet (use sandbox)`);
  }
}
