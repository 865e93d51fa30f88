import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { md5 } from 'hash-wasm';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { Toaster } from 'react-hot-toast';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { ChangePasswordForm } from './change-password-form';
import { RegisterForm } from './register-form';

function renderWithClient(ui: React.ReactNode) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <MemoryRouter>{ui}</MemoryRouter>
      <Toaster />
    </QueryClientProvider>,
  );
}

const RULE = 'Password must be 8-16 characters with uppercase, lowercase, numbers and special characters';

describe('register form password rules (product §5, §8)', () => {
  it('requires the password and its confirmation', async () => {
    renderWithClient(<RegisterForm />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please confirm your password')).toBeInTheDocument();
    expect(screen.getByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
  });

  it.each(['Short#1', 'Toolongpassword#123', 'nouppercase#1', 'NOLOWERCASE#1', 'NoDigits#here', 'NoSpecial123', 'Has space#1A'])(
    'rejects %s with the rule message',
    async (password) => {
      renderWithClient(<RegisterForm />);
      const user = userEvent.setup();
      await user.type(screen.getByLabelText('Password', { selector: 'input' }), password);
      await user.click(screen.getByRole('button', { name: 'Create account' }));
      expect(await screen.findByText(RULE)).toBeInTheDocument();
    },
  );

  it('rejects a confirmation that does not match', async () => {
    renderWithClient(<RegisterForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Good#Pass1');
    await user.type(screen.getByLabelText('Confirm password', { selector: 'input' }), 'Good#Pass2');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.queryByText(RULE)).not.toBeInTheDocument();
  });

  it('sends the MD5 digest, never the clear password, when everything is valid', async () => {
    let body: Record<string, unknown> | null = null;
    server.use(
      http.post('*/api/uc/v1/account/register', async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json({ code: 10006, msg: 'Username is taken', reason: 'CONFLICT' }, { status: 409 });
      }),
    );
    renderWithClient(<RegisterForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Username'), 'ada_l');
    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Good#Pass1');
    await user.type(screen.getByLabelText('Confirm password', { selector: 'input' }), 'Good#Pass1');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(body).not.toBeNull());
    expect(body).toEqual({ username: 'ada_l', email: 'Ada@Example.com', password: await md5('Good#Pass1') });
    expect(await screen.findByText('Username is taken')).toBeInTheDocument();
  });
});

describe('change password form (product §5)', () => {
  it('requires the current password and applies the rules to the new one', async () => {
    renderWithClient(<ChangePasswordForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'weak');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'weaker');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Please enter your current password')).toBeInTheDocument();
    expect(screen.getByText(RULE)).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
  });

  it('refuses the current password as the new one, before any call', async () => {
    let calls = 0;
    server.use(
      http.post('*/api/uc/v1/account/password/change', () => {
        calls++;
        return HttpResponse.json({ code: 10000, msg: 'ok', data: {} });
      }),
    );
    renderWithClient(<ChangePasswordForm />);
    const user = userEvent.setup();
    for (const label of ['Current password', 'New password', 'Confirm new password'])
      await user.type(screen.getByLabelText(label, { selector: 'input' }), 'Same#Pass123');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The new password must be different from the current one')).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('shows a wrong current password at its field, not only in a toast', async () => {
    server.use(
      http.post('*/api/uc/v1/account/password/change', () =>
        HttpResponse.json({ code: 10003, msg: 'Incorrect password', reason: 'INVALID_CREDENTIALS' }, { status: 400 }),
      ),
    );
    renderWithClient(<ChangePasswordForm />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Current password', { selector: 'input' }), 'Wrong#Pass123');
    for (const label of ['New password', 'Confirm new password'])
      await user.type(screen.getByLabelText(label, { selector: 'input' }), 'Fresh#Pass123');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    const field = screen.getByLabelText('Current password', { selector: 'input' });
    await waitFor(() => expect(field).toHaveAccessibleDescription(/Incorrect password/));
  });
});
