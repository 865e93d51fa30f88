/**
 * The proof-of-liabilities page (product §22) through the real route table: skeleton, empty state,
 * liabilities next to the reserves, and "Check my balance", whose proof is built here with the
 * contract's tree code and verified by the page in the browser — a proof for another amount or
 * another publication fails, and a user not in the publication sees the server's text.
 */
import {
  buildLevels,
  leafNode,
  minorToPoints,
  proofPath,
  rootOf,
  type Publication,
  type ReservesProofData,
} from '@coffer/contract';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { fail, ok, renderApp, signIn, signOutStore, testUser } from '@/test/render';
import { server } from '@/test/server';
import { ReservesTexts } from './reserves-page';

// The signed-in user's 12.50 points in two shares (leaves 0 and 3), as the server splits balances.
const users = [
  { userId: testUser.id, salt: 'a1'.repeat(32), balance: 450n },
  { userId: 'someone-else', salt: 'b2'.repeat(32), balance: 99_999n },
  { userId: 'a-third-one', salt: 'c3'.repeat(32), balance: 1n },
  { userId: testUser.id, salt: 'd4'.repeat(32), balance: 800n },
];
const levels = buildLevels(users.map(leafNode));
const root = rootOf(levels);

const publication: Publication = {
  id: 'pub-1',
  root_hash: root.hash,
  total: minorToPoints(root.sum),
  user_count: 3,
  published_at: Date.UTC(2026, 10, 25, 12, 0),
  reserves: [
    {
      network: 'ETH',
      currency: 'usdterc20',
      address: '0x00000000000000000000000000000000000000a1',
      balance: '1000.5',
      balance_usd: '1000.50',
      read_at: 0,
      error: null,
    },
    {
      network: 'BSC',
      currency: 'usdtbsc',
      address: '0x00000000000000000000000000000000000000b2',
      balance: null,
      balance_usd: null,
      read_at: 0,
      error: 'evm: timeout',
    },
  ],
  reserves_usd: '1000.50',
  reserves_points: '100050.00',
};

const proof: ReservesProofData = {
  publication_id: publication.id,
  root_hash: root.hash,
  total: publication.total,
  user_id: testUser.id,
  balance: '12.50',
  shares: [0, 3].map((index) => ({
    index,
    salt: users[index]!.salt,
    balance: minorToPoints(users[index]!.balance),
    path: proofPath(levels, index).map((n) => ({ hash: n.hash, sum: minorToPoints(n.sum) })),
  })),
};

const latest = (body: unknown) =>
  http.post('*/api/uc/v1/reserves/latest', () => HttpResponse.json(body as Record<string, unknown>));
const proofAnswer = (body: unknown, status = 200) =>
  http.post('*/api/uc/v1/reserves/proof', () => HttpResponse.json(body as Record<string, unknown>, { status }));
const session = [
  http.post('*/api/uc/v1/account/get/me', () => HttpResponse.json(ok(testUser))),
  http.post('*/api/uc/v1/account/assets', () => HttpResponse.json(ok({ asset: testUser.asset }))),
];

beforeEach(() => signOutStore());

describe('/reserves', () => {
  it('shows a skeleton while loading, then the empty state before the first publication', async () => {
    server.use(
      http.post('*/api/uc/v1/reserves/latest', async () => {
        await delay(50);
        return HttpResponse.json(ok({ publication: null }));
      }),
    );
    renderApp('/reserves');
    expect(await screen.findByTestId('reserves-skeleton')).toBeInTheDocument();
    expect(await screen.findByText(ReservesTexts.emptyTitle)).toBeInTheDocument();
    expect(screen.getByText(ReservesTexts.emptyDescription)).toBeInTheDocument();
  });

  it('shows liabilities next to the reserves, with an unreadable address named, and asks a visitor to log in', async () => {
    server.use(latest(ok({ publication })));
    renderApp('/reserves');
    expect(await screen.findByRole('heading', { level: 1, name: ReservesTexts.title })).toBeInTheDocument();
    expect(await screen.findByText('1,012.50 points')).toBeInTheDocument(); // 12.50 + 999.99 + 0.01
    expect(screen.getByText('100,050.00 points')).toBeInTheDocument();
    expect(screen.getByText('0x00000000000000000000000000000000000000a1')).toBeInTheDocument();
    expect(screen.getByText('1,000.5 ($1,000.50)')).toBeInTheDocument();
    expect(screen.getByText(ReservesTexts.unreadable)).toBeInTheDocument();
    expect(screen.getByText('evm: timeout')).toBeInTheDocument();
    expect(screen.getByText(root.hash)).toBeInTheDocument();
    expect(screen.getByText(ReservesTexts.logInToCheck)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: ReservesTexts.check })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Proof of liabilities' })).toHaveAttribute('href', '/reserves'); // the footer
  });

  it('verifies a signed-in user’s proof in the browser', async () => {
    signIn();
    server.use(...session, latest(ok({ publication })), proofAnswer(ok(proof)));
    const user = userEvent.setup();
    renderApp('/reserves');
    await user.click(await screen.findByRole('button', { name: ReservesTexts.check }));
    expect(await screen.findByText(ReservesTexts.included)).toBeInTheDocument();
    expect(screen.getByText('Your balance at publication: 12.50 points')).toBeInTheDocument();
    expect(screen.getByText('Checked in your browser: its 2 shares add up to it, and each leads to the published root.')).toBeInTheDocument();
  });

  it.each([
    ['a wrong amount', { ...proof, balance: '1250.00' }],
    ['a share left out', { ...proof, shares: proof.shares.slice(0, 1) }],
    ['a wrong salt', { ...proof, shares: [{ ...proof.shares[0]!, salt: 'ff'.repeat(32) }, proof.shares[1]!] }],
    ['another publication', { ...proof, publication_id: 'pub-0' }],
    [
      'another user’s leaf',
      {
        ...proof,
        user_id: 'someone-else',
        balance: '999.99',
        shares: [
          {
            index: 1,
            salt: users[1]!.salt,
            balance: '999.99',
            path: proofPath(levels, 1).map((n) => ({ hash: n.hash, sum: minorToPoints(n.sum) })),
          },
        ],
      },
    ],
  ])('refuses a proof with %s', async (_name, bad) => {
    signIn();
    server.use(...session, latest(ok({ publication })), proofAnswer(ok(bad)));
    const user = userEvent.setup();
    renderApp('/reserves');
    await user.click(await screen.findByRole('button', { name: ReservesTexts.check }));
    expect(await screen.findByText(ReservesTexts.notVerified)).toBeInTheDocument();
    expect(screen.queryByText(ReservesTexts.included)).not.toBeInTheDocument();
  });

  it('shows the server’s text to a user who is not in the publication', async () => {
    signIn();
    const msg =
      'Your account is not included in the latest publication: it was made before you signed up. Your balance will be in the next one.';
    server.use(...session, latest(ok({ publication })), proofAnswer(fail(10005, msg, 'NOT_FOUND'), 404));
    const user = userEvent.setup();
    renderApp('/reserves');
    await user.click(await screen.findByRole('button', { name: ReservesTexts.check }));
    expect(await screen.findByText(msg)).toBeInTheDocument();
  });
});
