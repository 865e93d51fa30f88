/** Webhook URL checks (SSRF, ADR 0025): what production refuses when set and before each attempt. */
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isPrivateAddress, resolveWebhookTarget } from './webhook-target';

describe('webhook targets', () => {
  it('production: https only, no credentials, no local or private literal hosts', () => {
    expect(checkWebhookUrl('https://hooks.example.com/x?a=1', false)).toEqual({ url: 'https://hooks.example.com/x?a=1' });
    expect(checkWebhookUrl('http://hooks.example.com/x', false)).toEqual({ error: 'The URL must start with https://' });
    expect(checkWebhookUrl('http://localhost:3000/x', false)).toEqual({ error: 'The URL must start with https://' });
    expect(checkWebhookUrl('https://user:pw@hooks.example.com/', false)).toEqual({
      error: 'The URL must not contain a user name or password',
    });
    for (const host of [
      'localhost',
      '127.0.0.1',
      '10.1.2.3',
      '192.168.0.1',
      '169.254.169.254',
      '[::1]',
      '[fd00::1]',
      '[::ffff:127.0.0.1]',
    ]) {
      expect(checkWebhookUrl(`https://${host}/x`, false), host).toEqual({ error: 'The URL must point to a public address' });
    }
    expect(checkWebhookUrl('ftp://hooks.example.com/', false)).toEqual({ error: 'The URL must start with https://' });
  });

  it('development and tests: http is allowed for localhost only', () => {
    expect(checkWebhookUrl('http://localhost:3000/x', true)).toEqual({ url: 'http://localhost:3000/x' });
    expect(checkWebhookUrl('http://127.0.0.1:3000/x', true)).toEqual({ url: 'http://127.0.0.1:3000/x' });
    expect(checkWebhookUrl('http://example.com/x', true)).toEqual({ error: 'The URL must start with https://' });
  });

  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::2',
      '::ffff:10.0.0.1',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(a), a).toBe(false);
  });

  it('before each attempt, refuses a host that resolves to a private address (any of its answers)', async () => {
    const dns = (answers: Record<string, string[]>) => async (h: string) => {
      if (!answers[h]) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      return answers[h];
    };
    const resolve = dns({ 'ok.example': ['93.184.216.34'], 'evil.example': ['93.184.216.34', '127.0.0.1'] });
    expect(await resolveWebhookTarget('https://ok.example/h', false, resolve)).toBeNull();
    expect(await resolveWebhookTarget('https://evil.example/h', false, resolve)).toBe('blocked address');
    expect(await resolveWebhookTarget('https://gone.example/h', false, resolve)).toBe('dns: ENOTFOUND');
    expect(await resolveWebhookTarget('https://evil.example/h', true, resolve)).toBeNull();
  });
});
