import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { fail } from '@/test/render';
import { LoginForm } from './login-form';

function renderForm() {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>
        <LoginForm />
      </MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

async function logIn() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Username or email'), 'mira_studio');
  await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Coffer#2026');
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login form', () => {
  it("shows a suspended account the server's message, in the form and as a toast (product §27)", async () => {
    const msg =
      'Your account is suspended by Coffer: fraud. Your balance is kept; contact support to have the suspension lifted.';
    server.use(
      http.post('*/api/uc/v1/account/login', () => HttpResponse.json(fail(10011, msg, 'ACCOUNT_SUSPENDED'), { status: 403 })),
    );
    renderForm();
    await logIn();
    expect(await screen.findByRole('alert')).toHaveTextContent(msg);
    expect(await screen.findAllByText(msg)).toHaveLength(2);
    expect(screen.queryByText('You do not have permission to perform this action.')).not.toBeInTheDocument();
  });

  it('a wrong password reads as before, without the suspension notice', async () => {
    server.use(
      http.post('*/api/uc/v1/account/login', () =>
        HttpResponse.json(fail(10003, 'Incorrect username or password', 'INVALID_CREDENTIALS'), { status: 400 }),
      ),
    );
    renderForm();
    await logIn();
    expect(await screen.findByText('Incorrect username or password')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
