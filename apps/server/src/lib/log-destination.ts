/**
 * Where the server's logs go when nothing else is given: standard output through pino's
 * asynchronous destination (SonicBoom, `sync: false`), so a log line costs the request a buffer
 * append instead of a blocking write(2) (issue 42: two synchronous lines per request cost 25-50 %
 * of every read). Lines are written in batches of at least `minLength` bytes (4 KiB) or when the
 * event loop is idle; `flushSync` on `exit` writes what is buffered before the process ends, so a
 * crash's last line or a shutdown's "server closed" is never lost.
 *
 * Source: pino's "Asynchronous logging" (docs/asynchronous.md): buffered lines may be lost only on
 * a hard kill (SIGKILL, power loss), the trade-off every asynchronous logger makes.
 */
import pino from 'pino';

let shared: ReturnType<typeof pino.destination> | undefined;

/** The process's one asynchronous stdout destination (created on first use, flushed on exit). */
export function stdoutDestination(): ReturnType<typeof pino.destination> {
  if (shared) return shared;
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // stdout already closed (a pipe whose reader left): nothing more can be written.
    }
  });
  shared = destination;
  return destination;
}
