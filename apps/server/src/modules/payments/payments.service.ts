/**
 * What top-up and cash-out share (product §3 Currency, product §9, §14-§15): the provider's currency list
 * (cached 5 minutes, product §9), currency lookup, price quotes and the public payments configuration.
 * Amounts are decimal strings (see packages/contract/src/payments.ts for units).
 */
import { Big, CURRENCY_LIST_CACHE_MS, DEPOSIT_ORDER_LIFETIME_SECONDS, type Currency, type PublicConfig } from '@coffer/contract';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import type { PaymentProvider, ProviderCurrency } from '../../providers/payments/index';

export interface PaymentsDeps {
  provider: PaymentProvider;
  clock: Clock;
  /** POINTS_PER_USD (decimal string). */
  pointsPerUsd: string;
}

/** product §3 Currency as the API sends it. */
export function toCurrency(c: ProviderCurrency): Currency {
  return {
    code: c.code,
    symbol: c.symbol,
    name: c.name,
    network: c.network,
    logo_url: c.logoUrl,
    wallet_regex: c.walletRegex,
    extra_id_exists: c.extraIdExists,
    extra_id_regex: c.extraIdRegex,
    fiatEquivalent: new Big(c.payoutMinUsd).toFixed(2),
  };
}

/**
 * Tests `value` against a provider pattern. A pattern that does not compile counts as a match
 * (product §5: "a broken pattern is treated as valid").
 */
export function matchesPattern(pattern: string | null, value: string): boolean {
  if (!pattern) return true;
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    return true;
  }
  return re.test(value);
}

export function createPaymentsService(deps: PaymentsDeps) {
  const { provider, clock } = deps;
  let cache: { at: number; list: ProviderCurrency[] } | null = null;

  async function list(): Promise<ProviderCurrency[]> {
    if (!cache || clock.now() - cache.at >= CURRENCY_LIST_CACHE_MS) {
      cache = { at: clock.now(), list: await provider.listCurrencies() };
    }
    return cache.list;
  }

  return {
    provider,
    pointsPerUsd: deps.pointsPerUsd,

    /** product §7 currency/list: the provider's currencies, cached 5 minutes server-side. */
    async currencies(): Promise<{ currencies: Currency[] }> {
      return { currencies: (await list()).map(toCurrency) };
    },

    /**
     * The provider currency of `code`.
     * @throws AppError VALIDATION_FAILED 'Unsupported currency'
     */
    async currency(code: string): Promise<ProviderCurrency> {
      const found = (await list()).find((c) => c.code === code);
      if (!found) throw errors.validation('Unsupported currency');
      return found;
    },

    /** Points for one whole unit of `code`: price (USD) x POINTS_PER_USD, exact. */
    async pointsPerUnit(code: string): Promise<Big> {
      return new Big(await provider.priceUsd(code)).times(deps.pointsPerUsd);
    },

    /** The public settings the web app reads (`/api/uc/v1/config`). */
    publicConfig(): PublicConfig {
      return {
        payments: provider.name,
        sandbox: provider.sandbox,
        points_per_usd: deps.pointsPerUsd,
        deposit_lifetime_seconds: DEPOSIT_ORDER_LIFETIME_SECONDS,
      };
    },
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
