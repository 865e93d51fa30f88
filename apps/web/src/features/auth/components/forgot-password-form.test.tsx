import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/test/render';
import { server } from '@/test/server';

describe('forgot password', () => {
  it('never tells whether an account uses the address: the code step reads as neutrally as the toast', async () => {
    server.use(http.post('*/api/uc/v1/account/send_mail', () => HttpResponse.json({ code: 10000, msg: 'success', data: {} })));
    renderApp('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Email'), 'nobody@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset code' }));
    expect(await screen.findByLabelText('Reset code')).toBeInTheDocument();
    const notice = screen.getByText(/we sent a 6-digit code to it/);
    expect(notice).toHaveTextContent('If an account uses nobody@example.com, we sent a 6-digit code to it. It is valid for 10 minutes.');
    expect(screen.queryByText(/^We sent a/)).not.toBeInTheDocument();
  });
});
