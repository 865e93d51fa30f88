/**
 * Chooses the payment provider once, at boot, from `PAYMENTS` (product §11, STYLE "providers are
 * chosen once"). `sandbox` is built in; the real rails (`evm`, `tron`, `nowpayments`) plug in through
 * {@link RAILS} with their own variables (docs/payments.md) and implement the same
 * {@link PaymentProvider} interface. Several real rails (`PAYMENTS=evm,tron`) are joined by the
 * composite provider (./composite.ts, docs/decisions/0052-composite-payment-provider.md), which routes
 * each call by currency code.
 */
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Db } from '../../db/client';
import { ConfigError, type Config, type PaymentRail } from '../../env';
import type { Clock } from '../../lib/clock';
import { createCompositeProvider } from './composite';
import { createEvmProvider } from './evm/index';
import { createNowPaymentsProvider } from './nowpayments/index';
import { createSandboxProvider } from './sandbox';
import { createTonProvider } from './ton/index';
import { createTronProvider } from './tron/index';
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

interface RailDeps {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** How each real rail is built from the configuration (one line per rail). */
const RAILS: Record<Exclude<PaymentRail, 'sandbox'>, (config: Config, deps: RailDeps) => PaymentProvider> = {
  evm: (config, deps) => createEvmProvider(need(config.evm, 'EVM_NETWORKS', 'evm'), { ...deps, databaseUrl: config.DATABASE_URL }),
  tron: (config, deps) => createTronProvider(need(config.tron, 'TRON_TRX_USD_PRICE', 'tron'), { ...deps, databaseUrl: config.DATABASE_URL }),
  ton: (config, deps) => createTonProvider(need(config.ton, 'TON_HOT_WALLET_MNEMONIC', 'ton'), { ...deps, databaseUrl: config.DATABASE_URL }),
  nowpayments: (config, deps) => createNowPaymentsProvider(need(config.nowpayments, 'NOWPAYMENTS_API_KEY', 'nowpayments'), deps),
};

function need<T>(settings: T | undefined, variable: string, rail: string): T {
  if (!settings) throw new ConfigError(`Invalid configuration:\n${variable}: required when PAYMENTS lists ${rail}`);
  return settings;
}

/**
 * @throws ConfigError when a selected rail's settings are missing
 */
export function createPaymentProvider(config: Config, deps: { db: Db; clock: Clock; log?: FastifyBaseLogger }): PaymentProvider {
  const railDeps = { db: deps.db, clock: deps.clock, log: deps.log ?? silentLog };
  if (config.rails.length === 1 && config.rails[0] === 'sandbox') {
    return createSandboxProvider({ db: deps.db, clock: deps.clock, prices: config.SANDBOX_PRICES, payoutFees: config.SANDBOX_PAYOUT_FEES });
  }
  if (config.rails.includes('sandbox')) throw new ConfigError('Invalid configuration:\nPAYMENTS: sandbox cannot be combined with real rails');
  const rails = config.rails.map((r) => RAILS[r as Exclude<PaymentRail, 'sandbox'>](config, railDeps));
  return rails.length === 1 ? rails[0]! : createCompositeProvider(rails);
}
