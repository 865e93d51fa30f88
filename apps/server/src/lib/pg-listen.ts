/**
 * One PostgreSQL LISTEN connection that stays up: a dedicated `pg.Client` (a LISTENing connection
 * cannot come from the pool) that LISTENs on `channel`, hands each notification's payload to
 * `onNotify`, and after a loss or a failed attempt reconnects 1-10 s apart (1 s after a loss,
 * then 1 s more per failed attempt, at most 10 s). Used by the revocation bus (shared-state.ts)
 * and the payout wake-up (modules/withdrawals/payout-wake.ts).
 *
 * Notifications sent while no connection listened are lost (PostgreSQL keeps none for absent
 * listeners): `onReconnect` runs after every successful connection but the first, so a caller can
 * catch up (e.g. run a pass of the work it would have been woken for).
 */
import pg from 'pg';

/** Where a listener reports connection trouble (a pino/Fastify logger fits). */
export interface ListenLog {
  warn(obj: object, msg: string): void;
}

export interface PgListenOptions {
  /** PostgreSQL connection string. */
  url: string;
  /** The channel name (an SQL identifier: letters, digits, underscores). */
  channel: string;
  /** Prefix of the log lines, e.g. 'revocation bus'. */
  label: string;
  log: ListenLog;
  /** Called with each notification's payload ('' when it had none). */
  onNotify(payload: string): void;
  /** Called after each successful reconnection (not after the first connection). */
  onReconnect?(): void;
}

export interface PgListener {
  /** Resolves once LISTEN holds (or the listener was closed first). */
  ready: Promise<void>;
  /** True while a connection LISTENs. */
  listening(): boolean;
  /** Stops reconnecting and ends the connection. */
  close(): Promise<void>;
}

/** Opens the listener (see the module docs); never throws, failures are logged and retried. */
export function listenPg(options: PgListenOptions): PgListener {
  const { url, channel, label, log } = options;
  if (!/^[a-z_][a-z0-9_]*$/i.test(channel)) throw new Error(`listenPg: invalid channel name ${channel}`);
  let closed = false;
  let connectedBefore = false;
  let client: pg.Client | null = null;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (markReady = r));

  const connect = async (attempt: number): Promise<void> => {
    if (closed) return markReady();
    const c = new pg.Client({ connectionString: url });
    c.on('error', (err) => log.warn({ err }, `${label}: listener connection error`));
    c.on('notification', (n) => {
      if (n.channel === channel) options.onNotify(n.payload ?? '');
    });
    c.on('end', () => {
      if (closed || client !== c) return;
      client = null;
      log.warn({}, `${label}: listener connection lost; reconnecting`);
      setTimeout(() => void connect(0), 1_000).unref();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
      if (closed) {
        await c.end().catch(() => undefined);
        return markReady();
      }
      client = c;
      markReady();
      if (connectedBefore) options.onReconnect?.();
      connectedBefore = true;
    } catch (err) {
      await c.end().catch(() => undefined);
      if (closed) return markReady();
      // A first connection that failed counts as "before": whatever was sent meanwhile is caught up on.
      connectedBefore = true;
      log.warn({ err, attempt }, `${label}: LISTEN failed; retrying`);
      setTimeout(() => void connect(attempt + 1), Math.min(10_000, 1_000 * (attempt + 1))).unref();
    }
  };
  void connect(0);

  return {
    ready,
    listening: () => client !== null,
    async close() {
      closed = true;
      const c = client;
      client = null;
      if (c) await c.end().catch(() => undefined);
    },
  };
}
