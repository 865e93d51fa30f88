/**
 * The composite payment provider (docs/decisions/0052-composite-payment-provider.md): several real
 * rails behind one {@link PaymentProvider}, e.g. `PAYMENTS=evm,tron`. Each call that names a
 * currency goes to the rail that lists it (the first, in `PAYMENTS` order, when two list one code);
 * `payoutStatus`, which names only a payout id, asks each rail until one knows the payout.
 *
 * - `listCurrencies`: the union, in rail order; `name`: the rails joined by commas; `rails`: them.
 * - `attach`: every rail's workers, routes and close steps together; `pollPayments`: all rails'.
 * - `reserveBalances`: each address to the rail that lists its currency on its network.
 * - `maxPayoutConcurrency`: the sum of the rails' (unset if any rail sets none), and each rail is
 *   held to its own limit by a semaphore here, so `evm`'s single lane never blocks `tron`'s payouts.
 * Nothing is shared between rails: a rail's failure fails only the calls routed to it.
 */
import type { PaymentProvider, PayoutOutcome, ProviderAttachment, ProviderCurrency, ReceivedPayment, ReserveReading } from './types';

/** At most `limit` calls of `fn` run at once; the others wait in order. */
function limiter(limit: number | undefined) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (limit === undefined) return fn();
    // A waiter is handed the finishing call's slot, so no newcomer slips in between.
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    try {
      return await fn();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/**
 * @param rails the real rails, in `PAYMENTS` order (at least two; one rail is used as it is)
 * @throws Error when a rail is the sandbox (its points must never meet real money)
 */
export function createCompositeProvider(rails: readonly PaymentProvider[]): PaymentProvider {
  if (rails.some((r) => r.sandbox)) throw new Error('the sandbox cannot be combined with real rails');
  const names = rails.map((r) => r.name);
  const limits = new Map(rails.map((r) => [r, limiter(r.maxPayoutConcurrency)]));
  let codes: Promise<Map<string, PaymentProvider>> | null = null;

  /** Which rail lists which code (asked once; a rail whose list failed is asked again next time). */
  async function routes(): Promise<Map<string, PaymentProvider>> {
    codes ??= (async () => {
      const map = new Map<string, PaymentProvider>();
      for (const rail of rails) for (const c of await rail.listCurrencies()) if (!map.has(c.code)) map.set(c.code, rail);
      return map;
    })().catch((err: unknown) => {
      codes = null;
      throw err;
    });
    return codes;
  }

  async function railFor(code: string): Promise<PaymentProvider> {
    const rail = (await routes()).get(code);
    if (!rail) throw new Error(`no rail lists the currency ${code}`);
    return rail;
  }

  const concurrency = rails.every((r) => r.maxPayoutConcurrency !== undefined)
    ? rails.reduce((sum, r) => sum + r.maxPayoutConcurrency!, 0)
    : undefined;
  const withPoll = rails.filter((r) => r.pollPayments);

  const provider: PaymentProvider = {
    name: names.join(','),
    rails: names,
    sandbox: false,
    ...(concurrency !== undefined ? { maxPayoutConcurrency: concurrency } : {}),

    /** The rail that listed `code` (bills are made only for listed codes, so `listCurrencies` ran before). */
    railOf(code) {
      return knownCodes.get(code)?.name ?? names[0]!;
    },

    async listCurrencies(): Promise<ProviderCurrency[]> {
      const lists = await Promise.all(rails.map((r) => r.listCurrencies()));
      const seen = new Set<string>();
      const out: ProviderCurrency[] = [];
      lists.forEach((list, i) => {
        for (const c of list) {
          if (seen.has(c.code)) continue;
          seen.add(c.code);
          knownCodes.set(c.code, rails[i]!);
          out.push(c);
        }
      });
      return out;
    },
    priceUsd: async (code) => (await railFor(code)).priceUsd(code),
    minDeposit: async (code) => (await railFor(code)).minDeposit(code),
    createDeposit: async (input) => (await railFor(input.code)).createDeposit(input),
    estimatePayoutFee: async (input) => (await railFor(input.code)).estimatePayoutFee(input),
    async sendPayout(request) {
      const rail = await railFor(request.currency);
      return limits.get(rail)!(() => rail.sendPayout(request));
    },
    async payoutStatus(payoutId): Promise<PayoutOutcome> {
      for (const rail of rails) {
        const outcome = await limits.get(rail)!(() => rail.payoutStatus(payoutId));
        if (outcome.status !== 'unknown') return outcome;
      }
      return { status: 'unknown' };
    },
    async reserveBalances(addresses): Promise<ReserveReading[]> {
      const map = await routes();
      const currencies = new Map<string, ProviderCurrency>();
      for (const rail of rails) for (const c of await rail.listCurrencies()) if (!currencies.has(c.code)) currencies.set(c.code, c);
      return Promise.all(
        addresses.map(async (a): Promise<ReserveReading> => {
          const rail = map.get(a.currency);
          const c = currencies.get(a.currency);
          if (!rail || !c || c.network !== a.network.toUpperCase()) return { error: `no rail lists ${a.currency} on ${a.network}` };
          if (!rail.reserveBalances) return { error: `the ${rail.name} rail cannot read reserve balances` };
          return (await rail.reserveBalances([a]))[0] ?? { error: `the ${rail.name} rail gave no reading` };
        }),
      );
    },
    attach(hooks): ProviderAttachment {
      const parts = rails.flatMap((r) => (r.attach ? [r.attach(hooks)] : []));
      return {
        workers: parts.flatMap((p) => p.workers ?? []),
        async routes(app) {
          for (const p of parts) await p.routes?.(app);
        },
        async close() {
          await Promise.all(parts.map((p) => p.close?.()));
        },
      };
    },
  };
  const knownCodes = new Map<string, PaymentProvider>();
  if (withPoll.length) {
    provider.pollPayments = async (): Promise<ReceivedPayment[]> => (await Promise.all(withPoll.map((r) => r.pollPayments!()))).flat();
  }
  return provider;
}
