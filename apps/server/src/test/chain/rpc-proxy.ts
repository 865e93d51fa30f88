/**
 * A fault-injecting JSON-RPC proxy for tests (docs/payments.md, "What can go wrong"): it sits between Coffer and the
 * local chain on 127.0.0.1 and, per request, as a test's plan decides, answers like a bad node or
 * network would:
 *
 * - `timeout`: holds the request, forwards nothing, and never answers (the caller gives up);
 * - `late`: holds the request until the caller gave up, then forwards it (it takes effect unseen);
 * - `429`: answers HTTP 429 Too Many Requests without forwarding;
 * - `gateway-timeout`: forwards the request, then answers HTTP 504 (the effect happened, the answer is lost);
 * - `drop`: forwards the request, then closes the connection without an answer;
 * - `duplicate`: forwards the request twice and answers with the second answer (e.g. "already known");
 * - `deny-receipt`: answers `eth_getTransactionReceipt` with null although the node has it;
 * - `refuse`: answers `eth_sendRawTransaction` with a node error ("insufficient funds ...") without forwarding;
 * - `lag`: answers as a node `blocks` behind the head would (block number, counts and balances at
 *   that block, no receipts, logs or blocks above it, "header not found" for state above it).
 *
 * Requests without a fault are forwarded unchanged. Batches are forwarded unchanged.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | { kind: 'timeout' }
  | { kind: 'late' }
  | { kind: '429' }
  | { kind: 'gateway-timeout' }
  | { kind: 'drop' }
  | { kind: 'duplicate' }
  | { kind: 'deny-receipt' }
  | { kind: 'refuse' }
  | { kind: 'lag'; blocks: number };

export interface RpcRequest {
  id: unknown;
  method: string;
  params: unknown[];
}

/** Decides the fault of one request (null: forward it as it is). */
export type FaultPlan = (request: RpcRequest) => Fault | null;

export interface FaultProxy {
  /** The URL to give Coffer instead of the chain's. */
  url: string;
  /** Replaces the plan (null: no faults). */
  setPlan(plan: FaultPlan | null): void;
  /** Faults injected so far, by kind. */
  injected: Record<string, number>;
  /** Requests seen so far, by method. */
  seen: Record<string, number>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const hex = (n: bigint) => `0x${n.toString(16)}`;

/** Starts the proxy on 127.0.0.1 (a free port) in front of `target` (the chain's URL). */
export async function startFaultProxy(target: string): Promise<FaultProxy> {
  let plan: FaultPlan | null = null;
  const injected: Record<string, number> = {};
  const seen: Record<string, number> = {};

  async function forward(body: unknown): Promise<Json> {
    const res = await fetch(target, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await res.json()) as Json;
  }

  async function call(method: string, params: unknown[]): Promise<unknown> {
    const answer = await forward({ jsonrpc: '2.0', id: 1, method, params });
    if (answer.error) throw new Error(JSON.stringify(answer.error));
    return answer.result;
  }

  const isTag = (v: unknown) => v === 'latest' || v === 'pending' || v === 'safe' || v === 'finalized' || v === undefined;

  /** The answer a node `blocks` behind would give. */
  async function lagged(req: RpcRequest, blocks: number): Promise<Json> {
    const head = BigInt((await call('eth_blockNumber', [])) as string);
    const top = head - BigInt(blocks) < 0n ? 0n : head - BigInt(blocks);
    const ok = (result: unknown): Json => ({ jsonrpc: '2.0', id: req.id, result });
    const notFound = (): Json => ({ jsonrpc: '2.0', id: req.id, error: { code: -32000, message: 'header not found' } });
    const p = [...req.params];
    switch (req.method) {
      case 'eth_blockNumber':
        return ok(hex(top));
      case 'eth_getTransactionCount':
      case 'eth_getBalance':
      case 'eth_call':
      case 'eth_getCode': {
        const i = 1;
        if (isTag(p[i])) p[i] = hex(top);
        else if (typeof p[i] === 'string' && BigInt(p[i] as string) > top) return notFound();
        return forward({ ...req, jsonrpc: '2.0', params: p });
      }
      case 'eth_getBlockByNumber': {
        if (isTag(p[0])) p[0] = hex(top);
        else if (typeof p[0] === 'string' && BigInt(p[0] as string) > top) return ok(null);
        return forward({ ...req, jsonrpc: '2.0', params: p });
      }
      case 'eth_getTransactionReceipt':
      case 'eth_getTransactionByHash': {
        const answer = await forward({ ...req, jsonrpc: '2.0' });
        const r = answer.result as { blockNumber?: string | null } | null;
        if (r && r.blockNumber && BigInt(r.blockNumber) > top) return ok(null);
        return answer;
      }
      case 'eth_getLogs': {
        const answer = await forward({ ...req, jsonrpc: '2.0' });
        if (Array.isArray(answer.result))
          return ok((answer.result as { blockNumber: string }[]).filter((l) => BigInt(l.blockNumber) <= top));
        return answer;
      }
      default:
        return forward({ ...req, jsonrpc: '2.0' });
    }
  }

  const gaveUp = (req: IncomingMessage, res: ServerResponse) =>
    new Promise<void>((resolve) => {
      if (req.socket.destroyed) return resolve();
      res.on('close', () => resolve());
      req.socket.on('close', () => resolve());
    });

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('bad json');
      return;
    }
    const send = (json: unknown, status = 200) => {
      if (res.writableEnded || res.destroyed) return;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    };
    if (Array.isArray(body)) return send(await forward(body));
    const rpc = body as RpcRequest;
    seen[rpc.method] = (seen[rpc.method] ?? 0) + 1;
    const fault = plan?.(rpc) ?? null;
    if (!fault) return send(await forward(body));
    injected[fault.kind] = (injected[fault.kind] ?? 0) + 1;
    switch (fault.kind) {
      case 'timeout':
        await gaveUp(req, res);
        return;
      case 'late':
        await gaveUp(req, res);
        await forward(body).catch(() => {});
        return;
      case '429':
        return send({ jsonrpc: '2.0', id: rpc.id, error: { code: 429, message: 'Too Many Requests' } }, 429);
      case 'gateway-timeout':
        await forward(body).catch(() => {});
        return send({ message: 'gateway timeout' }, 504);
      case 'drop':
        await forward(body).catch(() => {});
        res.socket?.destroy();
        return;
      case 'duplicate':
        await forward(body).catch(() => {});
        return send(await forward(body));
      case 'deny-receipt':
        if (rpc.method === 'eth_getTransactionReceipt') return send({ jsonrpc: '2.0', id: rpc.id, result: null });
        return send(await forward(body));
      case 'refuse':
        if (rpc.method === 'eth_sendRawTransaction')
          return send({
            jsonrpc: '2.0',
            id: rpc.id,
            error: { code: -32000, message: 'insufficient funds for gas * price + value' },
          });
        return send(await forward(body));
      case 'lag':
        return send(await lagged(rpc, fault.blocks));
    }
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) res.writeHead(502).end(String((err as Error).message));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    setPlan(next) {
      plan = next;
    },
    injected,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A small seeded pseudo-random generator (mulberry32) for reproducible fault schedules.
 * @returns a function giving floats in [0, 1)
 */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
