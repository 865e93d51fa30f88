import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { ok } from '@/test/render';
import { SecurityPage } from './security-page';

const api = (p: string) => `*/api/uc/v1/account${p}`;
const CODES = Array.from({ length: 10 }, (_, i) => `AAAA-BBBB-CCCC-000${i}`);
const NOW = Date.now();
const SESSIONS = [
  { id: '0190f3a2-0000-7000-8000-00000000000a', device: 'Chrome on macOS', address: '127.0.0.1', created_at: NOW - 60_000, last_seen_at: NOW, current: true },
  { id: '0190f3a2-0000-7000-8000-00000000000b', device: 'Safari on iPhone', address: '10.0.0.2', created_at: NOW - 86_400_000, last_seen_at: NOW - 3_600_000, current: false },
];

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <SecurityPage />
      <AppToaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('Your Profile > Security (product §26)', () => {
  it('turns two-factor on: QR code and key, a typed code, then the ten recovery codes once', async () => {
    let enabled = false;
    const sent: unknown[] = [];
    server.use(
      http.post(api('/2fa/status'), () => HttpResponse.json(ok({ enabled, recovery_codes_left: enabled ? 10 : 0 }))),
      http.post(api('/2fa/setup'), () =>
        HttpResponse.json(ok({ otpauth_uri: 'otpauth://totp/Coffer:ada?secret=JBSWY3DPEHPK3PXP&issuer=Coffer', secret: 'JBSWY3DPEHPK3PXP' })),
      ),
      http.post(api('/2fa/enable'), async ({ request }) => {
        sent.push(await request.json());
        enabled = true;
        return HttpResponse.json(ok({ recovery_codes: CODES }));
      }),
      http.post(api('/session/list'), () => HttpResponse.json(ok({ sessions: SESSIONS }))),
    );
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Turn on two-factor' }));
    expect(await screen.findByRole('img', { name: 'QR code of the two-factor setup key' })).toBeInTheDocument();
    expect(screen.getByText('JBSWY3DPEHPK3PXP')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify and turn on' }));
    expect(screen.getByText('Enter the 6-digit code')).toBeInTheDocument();
    await user.type(screen.getByLabelText('6-digit code'), '123456');
    await user.keyboard('{Enter}');
    const codes = await screen.findByRole('region', { name: 'Save your recovery codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(sent).toEqual([{ code: '123456' }]);
    expect(await screen.findByText('10 recovery codes left', { exact: false })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(screen.queryByRole('region', { name: 'Save your recovery codes' })).not.toBeInTheDocument();
  });

  it('turns two-factor off in a keyboard-usable dialog, showing a wrong code there', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post(api('/2fa/status'), () => HttpResponse.json(ok({ enabled: true, recovery_codes_left: 9 }))),
      http.post(api('/2fa/disable'), async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ code: 10003, msg: 'Incorrect code', reason: 'INVALID_CREDENTIALS' }, { status: 400 });
      }),
      http.post(api('/session/list'), () => HttpResponse.json(ok({ sessions: SESSIONS }))),
    );
    const user = renderPage();
    expect(await screen.findByText('9 recovery codes left', { exact: false })).toBeInTheDocument();
    screen.getByRole('button', { name: 'Turn off' }).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    expect(within(dialog).getByLabelText('Password')).toHaveFocus();
    await user.keyboard('Coffer#2026');
    await user.tab();
    await user.keyboard('654321{Enter}');
    expect(await within(dialog).findByText('Incorrect code')).toBeInTheDocument();
    expect(sent).toEqual([{ password: '054ccf585c9e088925abb2db78899549', code: '654321' }]);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('lists sessions, revokes one and signs out the others', async () => {
    let sessions = SESSIONS;
    const revoked: unknown[] = [];
    server.use(
      http.post(api('/2fa/status'), () => HttpResponse.json(ok({ enabled: false, recovery_codes_left: 0 }))),
      http.post(api('/session/list'), () => HttpResponse.json(ok({ sessions }))),
      http.post(api('/session/revoke'), async ({ request }) => {
        revoked.push(await request.json());
        sessions = sessions.filter((s) => s.current);
        return HttpResponse.json(ok({}));
      }),
      http.post(api('/session/revoke/others'), () => HttpResponse.json(ok({ revoked: 0 }))),
    );
    const user = renderPage();
    expect(await screen.findByText('Safari on iPhone')).toBeInTheDocument();
    expect(screen.getByText('Chrome on macOS')).toBeInTheDocument();
    expect(screen.getByText('This device')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: /^Revoke/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Revoke Safari on iPhone' }));
    expect(await screen.findByText('Session signed out')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Safari on iPhone')).not.toBeInTheDocument());
    expect(revoked).toEqual([{ session_id: SESSIONS[1]!.id }]);
    expect(screen.getByText('No other sessions.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign out other sessions' })).toBeDisabled();
  });
});
