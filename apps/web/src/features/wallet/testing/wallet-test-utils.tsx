/**
 * Fixtures of the wallet's component tests: the sandbox's currencies, bills and records as the
 * server sends them, MSW handlers for the wallet's calls, and a renderer with a fresh QueryClient,
 * a memory router (to see navigation) and the toaster.
 */
import type { Currency, DepositBill, TransactionRecord, WithdrawBill } from '@coffer/contract';
import { DepositStatus, Direction, RecordStatus, RecordType, WithdrawStatus } from '@coffer/contract/constants';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import type { ReactNode } from 'react';
import toast, { Toaster } from 'react-hot-toast';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { createQueryClient } from '@/lib/query-client';
import { setAccessToken } from '@/lib/storage';
import { server } from '@/test/server';

export const USER_ID = '0190f3a2-0000-7000-8000-000000000001';
export const BILL_ID = '0190f3a2-0000-7000-8000-0000000000b1';
export const TRON_ADDRESS = 'TJRyWwFs9wTFGZg3JbrVriFbNfCug5tDeC';

const base = { name: 'Tether', logo_url: '', extra_id_exists: false, extra_id_regex: null, fiatEquivalent: '10.00' };
export const currencies: Currency[] = [
  { ...base, code: 'usdttrc20', symbol: 'USDT', network: 'TRX', wallet_regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$' },
  { ...base, code: 'usdtbsc', symbol: 'USDT', network: 'BSC', wallet_regex: '^(0x)[0-9A-Fa-f]{40}$' },
  {
    ...base,
    code: 'usdtton',
    symbol: 'USDT',
    network: 'TON',
    wallet_regex: '^(EQ|UQ)[0-9A-Za-z_-]{46}$',
    extra_id_exists: true,
    extra_id_regex: '^[0-9]{1,10}$',
  },
  { ...base, code: 'usdtbroken', symbol: 'USDT', network: 'BROKEN', wallet_regex: '([unclosed' },
  { ...base, code: 'btc', symbol: 'BTC', name: 'Bitcoin', network: 'BTC', wallet_regex: '^bc1[a-z0-9]{25,62}$' },
  { ...base, code: 'eth', symbol: 'ETH', name: 'Ethereum', network: 'ETH', wallet_regex: '^(0x)[0-9A-Fa-f]{40}$' },
];

export const ok = (data: unknown) => ({ code: 10000, msg: 'success', data });
export const fail = (msg: string, code = 40000, reason = 'VALIDATION_FAILED') => ({ code, msg, reason });

const api = (path: string) => `*/api/uc/v1/account${path}`;

/** Answers a wallet call with `body` (an envelope), optionally after inspecting the request body. */
export function on(path: string, answer: (body: any) => JsonBodyType | Promise<JsonBodyType>, status = 200) {
  return http.post(path.startsWith('/api/') ? `*${path}` : api(path), async ({ request }) =>
    HttpResponse.json(await answer(await request.json()), { status }),
  );
}

/** The usual answers: currencies, USDT/BTC minimums (100 points = 1 USDT), a balance of `available`. */
export function mockWalletApi({ available = '5000.00', twoFactor = false }: { available?: string; twoFactor?: boolean } = {}) {
  server.use(
    on('/2fa/status', () => ok({ enabled: twoFactor, recovery_codes_left: twoFactor ? 10 : 0 })),
    on('/currency/list', () => ok({ currencies })),
    on('/deposit/min-amount', (b) =>
      ok({
        result:
          b.currency_from === 'btc'
            ? { min_amount: '600.00', currency_min_amount: '0.00010000', fiat_equivalent: '6.00' }
            : { min_amount: '100.00', currency_min_amount: '1.00000000', fiat_equivalent: '1.00' },
      }),
    ),
    on('/assets', () => ok({ asset: { available, freeze: '0.00' } })),
    // The cash-out form estimates the fee by itself once the amount is valid.
    on('/withdraw/estimate/fee', (b) => ok({ result: { amount: b.amount, fee: '1.00000000', fiat_equivalent: '1.00' } })),
    on('/api/uc/v1/config', () =>
      ok({ payments: 'sandbox', sandbox: true, points_per_usd: '100', deposit_lifetime_seconds: 1800 }),
    ),
  );
}

export function depositBill(overrides: Partial<DepositBill> = {}): DepositBill {
  return {
    id: BILL_ID,
    user_id: USER_ID,
    amount: '2500.00',
    amount_usd: '25.00',
    currency_amount: '25.00000000',
    pay_currency: 'usdttrc20',
    network: 'TRX',
    address: TRON_ADDRESS,
    status: DepositStatus.Processing,
    created: String(Date.now()),
    expires_at: Date.now() + 1_800_000,
    paid_currency_amount: '0',
    credited_amount: '0.00',
    ...overrides,
  };
}

export function withdrawBill(overrides: Partial<WithdrawBill> = {}): WithdrawBill {
  return {
    id: BILL_ID,
    user_id: USER_ID,
    amount: '1000.00',
    amount_usd: '10.00',
    fee_fiat: '1.00',
    currency_amount: '9.00000000',
    currency: 'usdttrc20',
    network: 'TRX',
    address: TRON_ADDRESS,
    memo: '',
    status: WithdrawStatus.Pending,
    created_at: String(Date.now()),
    expires_at: Date.now() + 900_000,
    txid: null,
    failure_reason: null,
    ...overrides,
  };
}

export function record(i: number, overrides: Partial<TransactionRecord> = {}): TransactionRecord {
  return {
    id: `0190f3a2-0000-7000-8000-${String(i).padStart(12, '0')}`,
    biz_id: BILL_ID,
    type: RecordType.TopUp,
    direction: Direction.Incoming,
    amount: '100.00',
    status: RecordStatus.Success,
    created_at: Date.UTC(2026, 2, 5, 12),
    ...overrides,
  };
}

function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname}</output>;
}

/** Renders `ui` at '/' with a fresh QueryClient, a memory router and the toaster; signed in. */
export function renderWallet(ui: ReactNode) {
  // react-hot-toast keeps its toasts in a module-level store: start each test without any.
  toast.remove();
  setAccessToken('test-token');
  const queryClient = createQueryClient();
  const element = (
    <>
      {ui}
      <LocationProbe />
    </>
  );
  const router = createMemoryRouter(
    [
      { path: '/', element },
      { path: '/transactions', element },
    ],
    { initialEntries: ['/'] },
  );
  const result = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return { ...result, queryClient, router };
}
