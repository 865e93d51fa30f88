/** The payments module's pieces that the API tests cannot reach: the sandbox-only route and the sandbox's rules. */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { isFailingPayoutAddress, sandboxAddress } from '../../providers/payments/sandbox';
import type { DepositsService } from '../deposits/deposits.service';
import { paymentRoutes } from './payments.routes';
import { matchesPattern, type PaymentsService } from './payments.service';

async function appWith(sandbox: boolean) {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate('requireAuth', async () => {});
  app.decorate('optionalAuth', async () => {});
  app.decorate('authFor', () => async () => {});
  const payments = { provider: { sandbox, name: sandbox ? 'sandbox' : 'nowpayments' } } as unknown as PaymentsService;
  await paymentRoutes(app, payments, {} as DepositsService);
  await app.ready();
  return app;
}

describe('the sandbox pay route', () => {
  it('exists only when the provider is the sandbox', async () => {
    const sandbox = await appWith(true);
    const real = await appWith(false);
    try {
      expect(sandbox.hasRoute({ method: 'POST', url: '/api/dev/sandbox/pay' })).toBe(true);
      expect(real.hasRoute({ method: 'POST', url: '/api/dev/sandbox/pay' })).toBe(false);
      expect(real.hasRoute({ method: 'POST', url: '/api/uc/v1/account/currency/list' })).toBe(true);
    } finally {
      await sandbox.close();
      await real.close();
    }
  });
});

describe('sandbox rules', () => {
  it('derives the same valid-looking address from the same seed, and different ones otherwise', () => {
    const patterns = {
      evm: /^(0x)[0-9A-Fa-f]{40}$/,
      tron: /^T[1-9A-HJ-NP-Za-km-z]{33}$/,
      ton: /^(EQ|UQ)[0-9A-Za-z_-]{46}$/,
      btc: /^(bc1[a-z0-9]{25,62}|[13][a-km-zA-HJ-NP-Z1-9]{25,34})$/,
    } as const;
    for (const [kind, re] of Object.entries(patterns) as [keyof typeof patterns, RegExp][]) {
      const a = sandboxAddress(kind, 'bill-a');
      expect(a).toMatch(re);
      expect(sandboxAddress(kind, 'bill-a')).toBe(a);
      expect(sandboxAddress(kind, 'bill-b')).not.toBe(a);
    }
  });

  it('fails payouts to addresses ending in "dead", any case', () => {
    expect(isFailingPayoutAddress('0x000000000000000000000000000000000000dEaD')).toBe(true);
    expect(isFailingPayoutAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjdead ')).toBe(true);
    expect(isFailingPayoutAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
  });
});

describe('matchesPattern (product §5: a broken pattern counts as valid)', () => {
  it('matches, refuses, and lets a broken pattern pass', () => {
    expect(matchesPattern('^T[1-9A-HJ-NP-Za-km-z]{33}$', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(matchesPattern('^T[1-9A-HJ-NP-Za-km-z]{33}$', '0x0')).toBe(false);
    expect(matchesPattern('^(unclosed', 'anything')).toBe(true);
    expect(matchesPattern(null, 'anything')).toBe(true);
  });
});
