/**
 * The typed Coffer client (docs/decisions/0062-sdk-generated-client.md).
 *
 * Every Coffer call is `POST <path>` with a JSON body and answers the envelope
 * `{code, msg, data?, reason?}`: `code` 10000 is success. {@link CofferClient.call} takes a path of
 * the generated `paths` (src/generated/openapi.ts, from the server's OpenAPI document), its typed
 * body, and returns the typed `data`; any other `code` (whatever the HTTP status) throws a
 * {@link CofferApiError} with `code`, `msg` and `reason`. Transport failures (no answer, an answer
 * that is not the envelope) throw a {@link CofferApiError} with `code` 0 and reason `NETWORK` or
 * `BAD_RESPONSE`.
 *
 * The bearer token is a session token (`login`'s `access_token`) today; personal access tokens
 * use the same `Authorization: Bearer` header.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './generated/openapi';

/** The envelope's success code (product §12). */
export const SUCCESS_CODE = 10000;

/** A Coffer call that did not succeed: the envelope's `code`, `msg` and `reason`, and the HTTP status. */
export class CofferApiError extends Error {
  override readonly name = 'CofferApiError';
  constructor(
    /** The envelope's `code` (ERROR_TABLE in packages/contract/src/envelope-codes.ts); 0 when no envelope came back. */
    readonly code: number,
    /** The human-readable message. */
    readonly msg: string,
    /** The machine-readable reason, e.g. `VALIDATION_FAILED`; `NETWORK` or `BAD_RESPONSE` without an envelope. */
    readonly reason: string | undefined,
    /** HTTP status (0 when no answer came). */
    readonly status: number,
    /** The `data` a few refusals carry (e.g. a minimum amount). */
    readonly data?: unknown,
  ) {
    super(reason ? `${reason}: ${msg}` : msg);
  }
}

/** The paths that take a POST (every Coffer call). */
export type CallPath = {
  [P in keyof paths]: paths[P] extends { post: object } ? P : never;
}[keyof paths];

type PostOf<P extends CallPath> = paths[P] extends { post: infer O } ? O : never;

/** The JSON body of the call at `P`. */
export type CallBody<P extends CallPath> =
  PostOf<P> extends { requestBody: { content: { 'application/json': infer B } } }
    ? B
    : PostOf<P> extends { requestBody?: { content: { 'application/json': infer B } } }
      ? B | undefined
      : Record<string, never>;

/** The `data` of the successful answer of the call at `P`. */
export type CallData<P extends CallPath> =
  PostOf<P> extends { responses: { 200: { content: { 'application/json': { data: infer D } } } } } ? D : unknown;

export interface CofferClientOptions {
  /** The server's origin, e.g. `https://coffer.example` (no trailing path needed). */
  baseUrl: string;
  /** A bearer token (session token or personal access token); calls are anonymous without one. */
  token?: string | undefined;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Sent as `Idempotency-Key` (calls marked idempotent; docs/api.md "Idempotency keys"). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface CofferClient {
  /** The server's origin, without a trailing slash. */
  readonly baseUrl: string;
  /**
   * Calls `path` with `body`. @returns the answer's `data`, typed from the OpenAPI document
   * @throws CofferApiError when `code` is not 10000, or on a transport failure
   */
  call<P extends CallPath>(path: P, body: CallBody<P>, options?: CallOptions): Promise<CallData<P>>;
  /** The openapi-fetch client underneath (answers unwrapped), for what `call` does not cover. */
  readonly raw: Client<paths>;
  /** The fetch calls and uploads go through. */
  readonly fetch: typeof fetch;
}

interface Envelope {
  code: number;
  msg: string;
  data?: unknown;
  reason?: string;
}

const isEnvelope = (v: unknown): v is Envelope =>
  typeof v === 'object' && v !== null && typeof (v as Envelope).code === 'number' && typeof (v as Envelope).msg === 'string';

/** A client of the Coffer server at `baseUrl`, signed in with `token` when given. */
export function createCofferClient(options: CofferClientOptions): CofferClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const raw = createClient<paths>({
    baseUrl,
    fetch: (req: Request) => doFetch(req),
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
  });
  return {
    baseUrl,
    raw,
    fetch: doFetch,
    async call(path, body, callOptions = {}) {
      let result: { data?: unknown; error?: unknown; response: Response };
      try {
        // The path is one of the generated ones; the body its generated type. openapi-fetch's own
        // generics over ~200 paths are too deep to instantiate per call, hence the narrow cast.
        result = await (raw.POST as unknown as (p: string, init: object) => Promise<typeof result>)(path, {
          body: body ?? {},
          ...(callOptions.idempotencyKey ? { headers: { 'Idempotency-Key': callOptions.idempotencyKey } } : {}),
          ...(callOptions.signal ? { signal: callOptions.signal } : {}),
        });
      } catch (err) {
        if ((err as Error).name === 'AbortError') throw err;
        throw new CofferApiError(0, `Could not reach ${baseUrl}: ${(err as Error).message}`, 'NETWORK', 0);
      }
      const envelope = result.data ?? result.error;
      const status = result.response.status;
      if (!isEnvelope(envelope)) {
        throw new CofferApiError(0, `${path} answered HTTP ${status} without the Coffer envelope`, 'BAD_RESPONSE', status);
      }
      if (envelope.code !== SUCCESS_CODE) {
        throw new CofferApiError(envelope.code, envelope.msg, envelope.reason, status, envelope.data);
      }
      return envelope.data as CallData<typeof path>;
    },
  };
}
