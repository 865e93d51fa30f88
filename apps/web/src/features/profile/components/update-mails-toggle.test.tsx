import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { AppToaster } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/test/server';
import { ok } from '@/test/render';
import { UpdateMailsToggle } from './update-mails-toggle';

describe('Update mails (Your Profile > Notifications)', () => {
  test('reads the setting, and a keyboard toggle saves it with a toast', async () => {
    const sent: unknown[] = [];
    server.use(
      http.post('*/api/uc/v1/account/notifications', async ({ request }) => {
        const body = (await request.json()) as { update_mails?: boolean };
        sent.push(body);
        return HttpResponse.json(ok({ update_mails: body.update_mails ?? true }));
      }),
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={createQueryClient()}>
        <UpdateMailsToggle />
        <AppToaster />
      </QueryClientProvider>,
    );
    const toggle = await screen.findByRole('switch', { name: /Update mails/ });
    expect(toggle).toBeChecked();
    toggle.focus();
    await user.keyboard(' ');
    expect(await screen.findByText('Update mails turned off')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('switch', { name: /Update mails/ })).not.toBeChecked());
    expect(sent).toEqual([{}, { update_mails: false }]);
  });
});
