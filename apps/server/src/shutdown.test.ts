/**
 * Graceful shutdown (issue 17, docs/operations.md): the real server in a child process (through tsx),
 * an upload part in flight when SIGTERM arrives; the part is answered 200 with its ETag, new
 * connections are refused, and the process exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const md5 = (b: Buffer | string) => createHash('md5').update(b).digest('hex');

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** Polls `check` every 200 ms until it returns true; throws after `ms`. */
async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 120_000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let child: ChildProcess | undefined;
afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
});

describe('SIGTERM', () => {
  it('lets an upload part in flight finish, refuses new connections, and exits 0', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env: Record<string, string | undefined> = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: origin,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'coffer-shutdown-')),
      WORKERS: 'true',
      SERVE_WEB: 'false',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
    };
    if (!env.DATABASE_URL) delete env.DATABASE_URL;
    child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      cwd: serverDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));

    await waitFor('the server to listen', async () => (await fetch(`${origin}/readyz`)).status === 200, 240_000);
    const call = async (url: string, body: unknown, token?: string) => {
      const res = await fetch(`${origin}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as { code: number; data: any };
      expect(json.code, JSON.stringify(json)).toBe(10000);
      return json.data;
    };
    const name = `sd_${randomBytes(4).toString('hex')}`;
    const { access_token: token } = await call('/api/uc/v1/account/register', {
      username: name,
      email: `${name}@example.com`,
      password: md5('Secret#123'),
    });
    const data = randomBytes(12 * 1024 * 1024);
    const start = await call(
      '/sl/v1/multipart/upload',
      { file_name: 'big.bin', size: data.length, md5: md5(data), content_type: 'application/octet-stream' },
      token,
    );
    const { url } = await call('/sl/v1/upload/part/url', { upload_id: start.upload_id, part_number: 1 }, token);
    const part = data.subarray(0, start.part_size);

    // The part's headers and first half go out; `Expect: 100-continue` tells us the server has the request.
    const req = http.request(url, {
      method: 'PUT',
      agent: false,
      headers: { 'content-type': 'application/octet-stream', 'content-length': part.length, expect: '100-continue' },
    });
    const answered = new Promise<{ status: number; etag: string | undefined }>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, etag: res.headers.etag }));
      });
      req.on('error', reject);
    });
    await new Promise<void>((resolve) => req.on('continue', resolve));
    req.write(part.subarray(0, part.length / 2));

    child.kill('SIGTERM');
    await waitFor('the shutdown to begin', () => output.includes('shutting down'));
    // The listener is closed: a new connection is refused while the part is still in flight.
    await waitFor('new connections to be refused', async () => {
      try {
        await fetch(`${origin}/healthz`, { signal: AbortSignal.timeout(5_000) });
        return false;
      } catch {
        return true;
      }
    });
    req.end(part.subarray(part.length / 2));

    expect(await answered).toEqual({ status: 200, etag: `"${md5(part)}"` });
    expect(await exited).toBe(0);
    expect(output).toContain('shut down');
  }, 300_000);
});
