import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { fail, ok, signOutStore, testUser } from '@/test/render';
import { LoginForm } from './login-form';

const api = (p: string) => `*/api/uc/v1/account${p}`;

function renderLogin() {
  const onSuccess = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <LoginForm onSuccess={onSuccess} />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
  return { onSuccess, user: userEvent.setup() };
}

async function typePassword(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Username or email'), 'ada');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Coffer#2026');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

const twoFactorRequired = () =>
  HttpResponse.json(
    {
      code: 10011,
      msg: 'Enter the 6-digit code from your authenticator app',
      reason: 'TWO_FACTOR_REQUIRED',
      data: { challenge: 'challenge-1', expires_at: Date.now() + 300_000 },
    },
    { status: 403 },
  );

afterEach(() => signOutStore());

describe('login with two-factor sign-in (product §26)', () => {
  it('asks for the code after the password and sends it with the challenge', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(api('/login'), twoFactorRequired),
      http.post(api('/login/2fa'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json(ok({ access_token: 'token-2fa' }));
      }),
      http.post(api('/get/me'), () => HttpResponse.json(ok(testUser))),
    );
    const { user, onSuccess } = renderLogin();
    await typePassword(user);
    const code = await screen.findByLabelText('Code');
    expect(screen.getByText('Two-factor sign-in')).toBeInTheDocument();
    expect(screen.queryByText('You do not have permission to perform this action.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter the 6-digit code or a recovery code')).toBeInTheDocument();
    await user.type(code, '123456');
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(sent).toEqual([{ challenge: 'challenge-1', code: '123456' }]);
    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
  });

  it('shows a wrong code in the form, and goes back to the password when the challenge expired', async () => {
    let answer = () =>
      HttpResponse.json({ code: 10003, msg: 'Incorrect code', reason: 'INVALID_CREDENTIALS' }, { status: 400 });
    server.use(
      http.post(api('/login'), twoFactorRequired),
      http.post(api('/login/2fa'), () => answer()),
    );
    const { user } = renderLogin();
    await typePassword(user);
    await user.type(await screen.findByLabelText('Code'), 'AAAA-BBBB-CCCC-DDDD');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Incorrect code')).toBeInTheDocument();
    const code = screen.getByLabelText('Code');
    expect(code).toHaveAccessibleDescription('Incorrect code');
    expect(code).toHaveFocus();
    answer = () =>
      HttpResponse.json(
        { code: 10006, msg: 'This sign-in has expired. Please enter your password again.', reason: 'CONFLICT' },
        { status: 409 },
      );
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('This sign-in has expired. Please enter your password again.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
  });
});

describe('login form', () => {
  it("shows a suspended account the server's message, in the form and as a toast (product §27)", async () => {
    const msg =
      'Your account is suspended by Coffer: fraud. Your balance is kept; contact support to have the suspension lifted.';
    server.use(
      http.post('*/api/uc/v1/account/login', () => HttpResponse.json(fail(10012, msg, 'ACCOUNT_SUSPENDED'), { status: 403 })),
    );
    const { user } = renderLogin();
    await typePassword(user);
    expect(await screen.findByRole('alert')).toHaveTextContent(msg);
    await waitFor(() => expect(screen.getAllByText(msg)).toHaveLength(2));
    expect(screen.queryByText('You do not have permission to perform this action.')).not.toBeInTheDocument();
  });

  it('a wrong password shows at the password field (focused) and as a toast', async () => {
    server.use(
      http.post('*/api/uc/v1/account/login', () =>
        HttpResponse.json(fail(10003, 'Incorrect username or password', 'INVALID_CREDENTIALS'), { status: 400 }),
      ),
    );
    const { user } = renderLogin();
    await typePassword(user);
    const field = screen.getByLabelText('Password', { selector: 'input' });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription('Incorrect username or password');
    expect(field).toHaveFocus();
    await waitFor(() => expect(screen.getAllByText('Incorrect username or password')).toHaveLength(2));
  });

  it('the wrong-password message leaves the field once the password is retyped', async () => {
    server.use(
      http.post('*/api/uc/v1/account/login', () =>
        HttpResponse.json(fail(10003, 'Incorrect username or password', 'INVALID_CREDENTIALS'), { status: 400 }),
      ),
    );
    const { user } = renderLogin();
    await typePassword(user);
    const field = screen.getByLabelText('Password', { selector: 'input' });
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    await user.type(field, 'x');
    expect(field).not.toHaveAttribute('aria-invalid');
    expect(field).not.toHaveAccessibleDescription('Incorrect username or password');
  });
});
