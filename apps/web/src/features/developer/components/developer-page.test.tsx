import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { ok } from '@/test/render';
import { DeveloperPage } from './developer-page';

const api = (p: string) => `*/api/uc/v1/account${p}`;
const NOW = Date.now();
const LONG_NAME = 'Nightly export of every sale to the accounting spreadsheet '.repeat(2).trim();
const TOKEN = {
  id: '0190f3a2-0000-7000-8000-0000000000a1',
  name: LONG_NAME,
  scopes: ['orders:read', 'sales:read'],
  created_at: NOW - 86_400_000,
  last_used_at: null,
  expires_at: NOW + 29 * 86_400_000,
};
const SECRET = 'coffer_pat_abcdefghijklmnopqrstuvwxyz0123ABCDEF';

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <DeveloperPage />
      <AppToaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('Your Profile > Developer (personal access tokens)', () => {
  it('shows the empty state, then creates a token with the password and shows it once with a copy button', async () => {
    let tokens: unknown[] = [];
    const sent: unknown[] = [];
    server.use(
      http.post(api('/token/list'), () => HttpResponse.json(ok({ tokens }))),
      http.post(api('/2fa/status'), () => HttpResponse.json(ok({ enabled: false, recovery_codes_left: 0 }))),
      http.post(api('/token/create'), async ({ request }) => {
        sent.push(await request.json());
        const created = { ...TOKEN, name: 'CI', scopes: ['orders:read'], created_at: NOW };
        tokens = [created];
        return HttpResponse.json(ok({ ...created, token: SECRET }));
      }),
    );
    const user = renderPage();
    expect(await screen.findByText('No tokens yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New personal access token' });
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(within(dialog).getByText('Give the token a name')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose at least one scope')).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.type(within(dialog).getByLabelText('Name'), 'CI');
    await user.selectOptions(within(dialog).getByLabelText('Expires in'), '90');
    await user.click(within(dialog).getByRole('checkbox', { name: /orders:read/ }));
    await user.type(within(dialog).getByLabelText('Password'), 'Coffer#2026');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));

    const shown = await screen.findByRole('dialog', { name: 'Copy your new token' });
    expect(within(shown).getByLabelText('New token')).toHaveTextContent(SECRET);
    expect(within(shown).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    expect(within(shown).getByText(/won't be able to see it again/)).toBeInTheDocument();
    expect(sent).toEqual([
      { name: 'CI', scopes: ['orders:read'], expires_in_days: 90, password: '054ccf585c9e088925abb2db78899549' },
    ]);

    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Personal access tokens' });
    expect(within(list).getByText('CI')).toBeInTheDocument();
  });

  it('asks for a two-factor code when it is on, and shows a refusal in the dialog', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(api('/token/list'), () => HttpResponse.json(ok({ tokens: [] }))),
      http.post(api('/2fa/status'), () => HttpResponse.json(ok({ enabled: true, recovery_codes_left: 9 }))),
      http.post(api('/token/create'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ code: 10003, msg: 'Incorrect code', reason: 'INVALID_CREDENTIALS' }, { status: 400 });
      }),
    );
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'New personal access token' });
    await user.type(within(dialog).getByLabelText('Name'), 'Bot');
    await user.click(within(dialog).getByRole('checkbox', { name: /webhooks:read/ }));
    await user.type(await within(dialog).findByLabelText('Two-factor code'), '123456');
    await user.click(within(dialog).getByRole('button', { name: 'Create token' }));
    expect(await within(dialog).findByText('Incorrect code')).toBeInTheDocument();
    expect(sent).toEqual([{ name: 'Bot', scopes: ['webhooks:read'], expires_in_days: 30, code: '123456' }]);
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
  });

  it('lists tokens with scopes, dates and a long name, and revokes one after a confirmation', async () => {
    let tokens: unknown[] = [TOKEN];
    const revoked: unknown[] = [];
    server.use(
      http.post(api('/token/list'), () => HttpResponse.json(ok({ tokens }))),
      http.post(api('/token/revoke'), async ({ request }) => {
        revoked.push(await request.json());
        tokens = [];
        return HttpResponse.json(ok({}));
      }),
    );
    const user = renderPage();
    expect(await screen.findByText(LONG_NAME)).toBeInTheDocument();
    const scopes = screen.getByRole('list', { name: `Scopes of ${LONG_NAME}` });
    expect(
      within(scopes)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['orders:read', 'sales:read']);
    expect(screen.getByText(/Last used Never/)).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Revoke ${LONG_NAME}` }));
    const confirm = await screen.findByRole('dialog', { name: `Revoke "${LONG_NAME}"?` });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(revoked).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Revoke ${LONG_NAME}` }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Token revoked')).toBeInTheDocument();
    expect(revoked).toEqual([{ token_id: TOKEN.id }]);
    expect(await screen.findByText('No tokens yet')).toBeInTheDocument();
  });

  it('shows a failed load with Try again', async () => {
    let fail = true;
    server.use(
      http.post(api('/token/list'), () =>
        fail
          ? HttpResponse.json({ code: 10010, msg: 'Server error', reason: 'INTERNAL' }, { status: 500 })
          : HttpResponse.json(ok({ tokens: [TOKEN] })),
      ),
    );
    const user = renderPage();
    const alert = await screen.findByRole('alert');
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(LONG_NAME)).toBeInTheDocument();
  });
});
