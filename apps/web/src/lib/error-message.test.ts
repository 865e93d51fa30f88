/** The money screens' failure texts (product §8): the server msg or the screen's fallback; 403, 404 and 5xx read as the client's texts. */
import { describe, expect, it } from 'vitest';
import { ApiError, ErrorMessages, getErrorMessage, messageForFailure } from './api-client';

/** The money screens' policy: the server's words preferred ('server'). */
const walletErrorMessage = (error: unknown, fallback: string) => getErrorMessage(error, fallback, 'server');

const failure = (status: number, msg: string) =>
  new ApiError({ message: messageForFailure(status, msg, true), code: 10005, msg, status });

describe("failure texts preferring the server's words (money screens)", () => {
  it("shows 'The requested resource was not found.' for every 404, whatever the server's msg", () => {
    expect(walletErrorMessage(failure(404, 'Record does not exist'), 'Failed to check status')).toBe(
      'The requested resource was not found.',
    );
    expect(walletErrorMessage(failure(404, ''), 'Failed to check status')).toBe(ErrorMessages.notFound);
  });

  it('shows the server msg for other failures, else the fallback', () => {
    expect(walletErrorMessage(failure(409, 'Insufficient balance'), 'Failed to create order')).toBe('Insufficient balance');
    expect(walletErrorMessage(failure(400, ''), 'Failed to create order')).toBe('Failed to create order');
    expect(walletErrorMessage(failure(500, 'boom'), 'x')).toBe(ErrorMessages.server);
  });
});
