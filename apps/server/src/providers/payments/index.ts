/**
 * Chooses the payment provider once, at boot, from `PAYMENTS` (product §11, STYLE "providers are
 * chosen once"). `sandbox` is built in; `evm` and `nowpayments` plug in here with their own
 * variables (docs/payments.md) and implement the same {@link PaymentProvider} interface.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Db } from '../../db/client';
import { ConfigError, type Config } from '../../env';
import type { Clock } from '../../lib/clock';
import { createEvmProvider } from './evm/index';
import { createNowPaymentsProvider } from './nowpayments/index';
import { createSandboxProvider } from './sandbox';
import { createTonProvider } from './ton/index';
import type { PaymentProvider } from './types';

export type {
  PaymentProvider,
  PayoutOutcome,
  PayoutRequest,
  ProviderCurrency,
  ReceivedPayment,
  ReserveAddress,
  ReserveReading,
} from './types';
export { isFailingPayoutAddress, type SandboxProvider } from './sandbox';

/** Providers log through the app's logger; this one stands in when none is given. */
const silentLog = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

/**
 * @throws ConfigError when the selected provider is not available in this build
 */
export function createPaymentProvider(config: Config, deps: { db: Db; clock: Clock; log?: FastifyBaseLogger }): PaymentProvider {
  switch (config.PAYMENTS) {
    case 'sandbox':
      return createSandboxProvider({ db: deps.db, clock: deps.clock, prices: config.SANDBOX_PRICES, payoutFees: config.SANDBOX_PAYOUT_FEES });
    case 'evm':
      if (!config.evm) throw new ConfigError('Invalid configuration:\nEVM_NETWORKS: required when PAYMENTS=evm');
      return createEvmProvider(config.evm, { db: deps.db, clock: deps.clock, log: deps.log ?? silentLog, databaseUrl: config.DATABASE_URL });
    case 'nowpayments':
      if (!config.nowpayments) throw new ConfigError('Invalid configuration:\nNOWPAYMENTS_API_KEY: required when PAYMENTS=nowpayments');
      return createNowPaymentsProvider(config.nowpayments, { db: deps.db, clock: deps.clock, log: deps.log ?? silentLog });
    case 'ton':
      if (!config.ton) throw new ConfigError('Invalid configuration:\nTON_HOT_WALLET_MNEMONIC: required when PAYMENTS=ton');
      return createTonProvider(config.ton, { db: deps.db, clock: deps.clock, log: deps.log ?? silentLog, databaseUrl: config.DATABASE_URL });
    default:
      throw new ConfigError(`Invalid configuration:\nPAYMENTS: the ${config.PAYMENTS} provider is not available yet (use sandbox)`);
  }
}
