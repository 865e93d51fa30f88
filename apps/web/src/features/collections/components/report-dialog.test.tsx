import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, test } from 'vitest';
import { server } from '@/test/server';
import { fail, ok } from '@/test/render';
import { ReportToasts } from '../api/report-collection';
import { renderWithProviders } from '@/test/helpers';
import { ReportButton } from './report-dialog';

const COLLECTION = '0190f3a2-0000-7000-8000-0000000000c1';

function serve(answer: () => Response) {
  const bodies: unknown[] = [];
  server.use(
    http.post('*/sl/v1/collection/report', async ({ request }) => {
      bodies.push(await request.json());
      return answer();
    }),
  );
  return bodies;
}
const answer = (already: boolean) =>
  HttpResponse.json(ok({ report_id: 'r-1', status: 'open', already_reported: already, created_at: 1 }));

describe('ReportButton', () => {
  test('keyboard only: opens, refuses no reason, picks one with the arrows, sends, toasts and closes', async () => {
    const bodies = serve(() => answer(false));
    const user = userEvent.setup();
    renderWithProviders(<ReportButton collectionId={COLLECTION} title="Field kit" />);
    await user.tab();
    const trigger = screen.getByRole('button', { name: 'Report' });
    expect(trigger).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = screen.getByRole('dialog', { name: 'Report this collection' });
    expect(within(dialog).getByText('Field kit')).toBeInTheDocument();
    const group = within(dialog).getByRole('group', { name: 'Reason' });
    expect(
      within(group)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('value')),
    ).toEqual(['copyright', 'illegal', 'spam', 'other']);

    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please choose a reason');
    expect(bodies).toHaveLength(0);

    within(group)
      .getByRole('radio', { name: /Copyright/ })
      .focus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowDown}');
    expect(within(group).getByRole('radio', { name: /Illegal content/ })).toBeChecked();
    await user.tab();
    expect(within(dialog).getByRole('textbox', { name: 'Details (optional)' })).toHaveFocus();
    await user.keyboard('  Stolen from my site  ');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([{ collection_id: COLLECTION, reason: 'illegal', details: 'Stolen from my site' }]);
    expect(await screen.findByText(ReportToasts.sent)).toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  test('a repeat says it was already reported', async () => {
    serve(() => answer(true));
    const user = userEvent.setup();
    renderWithProviders(<ReportButton collectionId={COLLECTION} title="Field kit" />);
    await user.click(screen.getByRole('button', { name: 'Report' }));
    await user.click(screen.getByRole('radio', { name: /Spam or scam/ }));
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText(ReportToasts.already)).toBeInTheDocument();
  });

  test("a refusal (rate limit) keeps the dialog open with the server's message; Escape closes without a call", async () => {
    const bodies = serve(() =>
      HttpResponse.json(fail(10009, 'Too many attempts. Please try again later.', 'RATE_LIMITED'), { status: 429 }),
    );
    const user = userEvent.setup();
    renderWithProviders(<ReportButton collectionId={COLLECTION} title="Field kit" />);
    await user.click(screen.getByRole('button', { name: 'Report' }));
    await user.click(screen.getByRole('radio', { name: /Something else/ }));
    await user.click(screen.getByRole('button', { name: 'Send report' }));
    expect(await screen.findByText('Too many attempts. Please try again later.')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toHaveLength(1);
  });
});
