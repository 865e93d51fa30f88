/**
 * Where the server's logs go when nothing else is given: standard output through pino's
 * asynchronous destination (SonicBoom, `sync: false`), so a log line costs the request a buffer
 * append instead of a blocking write(2) (issue 42: two synchronous lines per request cost 25-50 %
 * of every read). A line is handed to the kernel by an asynchronous write as soon as the previous
 * write is done; lines logged meanwhile are buffered and go in the next write, so under load many
 * lines share one write(2) and a quiet server's line still appears at once (no `minLength`: a
 * buffer that waits to fill would hold a quiet server's lines back indefinitely). `flushSync` on
 * `exit` writes what is buffered before the process ends, so a crash's last line or a shutdown's
 * "shut down" is never lost.
 *
 * Source: pino's "Asynchronous logging" (docs/asynchronous.md): buffered lines may be lost only on
 * a hard kill (SIGKILL, power loss), the trade-off every asynchronous logger makes.
 */
import pino from 'pino';

let shared: ReturnType<typeof pino.destination> | undefined;

/** The process's one asynchronous stdout destination (created on first use, flushed on exit). */
export function stdoutDestination(): ReturnType<typeof pino.destination> {
  if (shared) return shared;
  const destination = pino.destination({ dest: 1, sync: false });
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
