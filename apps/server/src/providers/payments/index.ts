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
import { createSandboxProvider } from './sandbox';
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

/**
 * How each real rail is built from the configuration (one line per rail). A rail's module, and the
 * chain library under it (viem, tronweb, @ton/ton: about 40 MB of memory together), is loaded only
 * when `PAYMENTS` lists the rail, so the embedded default (`sandbox`) never loads them.
 */
const RAILS: Record<Exclude<PaymentRail, 'sandbox'>, (config: Config, deps: RailDeps) => Promise<PaymentProvider>> = {
  evm: async (config, deps) =>
    (await import('./evm/index')).createEvmProvider(need(config.evm, 'EVM_NETWORKS', 'evm'), { ...deps, databaseUrl: config.DATABASE_URL }),
  tron: async (config, deps) =>
    (await import('./tron/index')).createTronProvider(need(config.tron, 'TRON_TRX_USD_PRICE', 'tron'), {
      ...deps,
      databaseUrl: config.DATABASE_URL,
    }),
  ton: async (config, deps) =>
    (await import('./ton/index')).createTonProvider(need(config.ton, 'TON_HOT_WALLET_MNEMONIC', 'ton'), {
      ...deps,
      databaseUrl: config.DATABASE_URL,
    }),
  nowpayments: async (config, deps) =>
    (await import('./nowpayments/index')).createNowPaymentsProvider(need(config.nowpayments, 'NOWPAYMENTS_API_KEY', 'nowpayments'), deps),
};

function need<T>(settings: T | undefined, variable: string, rail: string): T {
  if (!settings) throw new ConfigError(`Invalid configuration:\n${variable}: required when PAYMENTS lists ${rail}`);
  return settings;
}

/**
 * Builds the provider of `PAYMENTS`: the sandbox, one rail, or the composite of several rails.
 * @throws ConfigError when a selected rail's settings are missing
 */
export async function createPaymentProvider(
  config: Config,
  deps: { db: Db; clock: Clock; log?: FastifyBaseLogger },
): Promise<PaymentProvider> {
  const railDeps = { db: deps.db, clock: deps.clock, log: deps.log ?? silentLog };
  if (config.rails.length === 1 && config.rails[0] === 'sandbox') {
    return createSandboxProvider({ db: deps.db, clock: deps.clock, prices: config.SANDBOX_PRICES, payoutFees: config.SANDBOX_PAYOUT_FEES });
  }
  if (config.rails.includes('sandbox')) throw new ConfigError('Invalid configuration:\nPAYMENTS: sandbox cannot be combined with real rails');
  const rails = await Promise.all(config.rails.map((r) => RAILS[r as Exclude<PaymentRail, 'sandbox'>](config, railDeps)));
  return rails.length === 1 ? rails[0]! : createCompositeProvider(rails);
}
