/**
 * The purchase scenario of the load generator (lib/loadgen.ts loads it by path): each autocannon
 * connection buys (`POST /sl/v1/collection/buy`) and then pays the order that buy answered (`POST
 * /api/uc/v1/account/order/pay`), over and over. Each purchase takes the next (buyer, collection)
 * pair, so every one moves money; a buy that answers an order already paid (the pairs ran out) or
 * any failure counts as failed and the connection starts the next purchase.
 *
 * Against a limit server (`bare: true`) the same two requests go out with the same headers and
 * bodies, the order id taken from the replayed buy answer.
 */
import { randomUUID } from 'node:crypto';
import type { Scenario } from './loadgen';

/** The scenario's arguments (plain JSON from the bench). */
export interface PurchaseArgs {
  /** Bearer tokens of the buyers. */
  tokens: string[];
  collectionIds: string[];
  /** Index of the first pair to use. */
  start: number;
  /** Pay whatever the buy answered without checking it (a limit server answers fixed bytes). */
  bare?: boolean;
  /** Send a fresh `Idempotency-Key` on every buy and pay (the store's cost, ADR 0051). */
  idempotency?: boolean;
}

/** What the scenario reports after its run. */
export interface PurchaseSummary {
  done: number;
  failed: number;
  /** Index of the next unused pair. */
  next: number;
  /** Purchase latency (buy sent to pay answered), ms. */
  p50: number;
  p99: number;
  /** The first failure's answer, if any. */
  firstFailure?: string;
}

interface Ctx {
  t0?: number;
  token?: string;
  order?: { id: string; amount: number };
}

export function scenario(raw: unknown): Scenario {
  const args = raw as PurchaseArgs;
  const buyers = args.tokens.length;
  const collections = args.collectionIds.length;
  let k = args.start;
  let done = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const latencies: number[] = [];
  const fail = (why: string) => {
    failed++;
    firstFailure ??= why.slice(0, 300);
  };
  const headers = (token: string) => ({
    'content-type': 'application/json',
    authorization: `Bearer ${token}`,
    ...(args.idempotency ? { 'idempotency-key': randomUUID() } : {}),
  });
  const requests = [
    {
      method: 'POST',
      path: '/sl/v1/collection/buy',
      setupRequest: (req: Record<string, unknown>, ctx: Ctx) => {
        const i = k++;
        // Pair i is (buyer i mod B, collection (i + floor(i / B)) mod C): distinct for B * C pairs.
        ctx.token = args.tokens[i % buyers]!;
        ctx.t0 = performance.now();
        ctx.order = undefined;
        return {
          ...req,
          headers: headers(ctx.token),
          body: JSON.stringify({ collection_id: args.collectionIds[(i + Math.floor(i / buyers)) % collections] }),
        };
      },
      onResponse: (status: number, body: string, ctx: Ctx) => {
        try {
          const out = JSON.parse(body) as { code: number; data?: { id: string; amount: number; status: string } };
          if (out.code === 10000 && out.data && (args.bare || out.data.status === 'OrderStatusPending'))
            ctx.order = { id: out.data.id, amount: out.data.amount };
          else fail(`buy ${status}: ${body}`);
        } catch {
          fail(`buy ${status}: ${body}`);
        }
      },
    },
    {
      method: 'POST',
      path: '/api/uc/v1/account/order/pay',
      setupRequest: (req: Record<string, unknown>, ctx: Ctx) => {
        if (!ctx.order) return null;
        return {
          ...req,
          headers: headers(ctx.token!),
          body: JSON.stringify({ order_id: ctx.order.id, amount: ctx.order.amount }),
        };
      },
      onResponse: (status: number, body: string, ctx: Ctx) => {
        try {
          const out = JSON.parse(body) as { code: number; data?: { status: string } };
          if (out.code === 10000 && (args.bare || out.data?.status === 'OrderStatusPaid')) {
            done++;
            latencies.push(performance.now() - ctx.t0!);
          } else fail(`pay ${status}: ${body}`);
        } catch {
          fail(`pay ${status}: ${body}`);
        }
      },
    },
  ];
  return {
    requests,
    summary: () => {
      latencies.sort((a, b) => a - b);
      const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
      const s: PurchaseSummary = { done, failed, next: k, p50: pct(50), p99: pct(99), ...(firstFailure ? { firstFailure } : {}) };
      return { ...s };
    },
  };
}
