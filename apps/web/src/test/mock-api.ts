/**
 * Typed MSW handlers for the component tests, checked against the contract (packages/contract).
 *
 * `mockApi(key, answer)` answers the call `key` of `ENDPOINTS` at the path the web client posts to
 * (`endpointPath(key)`, any origin), so a test cannot mock a path the app never calls. The answer's
 * `data` is typed by the call's response type (`EndpointData<key>`: a wrong field fails
 * `npm run typecheck`) and, at run time, parsed by the call's `data` schema of `ENDPOINT_SCHEMAS`
 * before it is sent: a mock the server could never send fails the test with zod's issues instead
 * of passing on data the app will not see (src/test/setup.ts fails the test after it ends). A `Response` (a failure envelope, a status) is sent as it is.
 *
 *   server.use(mockApi('myOrders', ordersPage([order])));
 *   server.use(mockApi('collectionBuy', ({ body }) => ({ order_id: 'o-1', amount: body.amount ?? 0, ... })));
 *   server.use(mockApi('orderPay', () => apiFailure(10009, 'Insufficient balance', 'CONFLICT', 409)));
 */
import { ENDPOINT_SCHEMAS, endpointPath, type EndpointBody, type EndpointData, type EndpointKey } from '@coffer/contract';
import { http, HttpResponse, type HttpHandler } from 'msw';
import { fail, ok } from './render';

/** What a mocked call answers: its `data` (sent in a success envelope) or a whole response. */
export type MockAnswer<K extends EndpointKey> = EndpointData<K> | Response;

/** What a responder is given: the request's JSON body (typed as the call's body) and the request. */
export interface MockRequest<K extends EndpointKey> {
  body: EndpointBody<K>;
  request: Request;
  /** 1 for the first call this handler answers, 2 for the second… */
  call: number;
}

/** Thrown when a mock's data does not match the contract's schema. */
export class MockContractError extends Error {}

/**
 * Mismatches seen since the last check. A throw inside a handler reaches MSW, not the test (MSW
 * answers 500), so src/test/setup.ts calls {@link takeMockContractErrors} after each test and fails it.
 */
const contractErrors: MockContractError[] = [];

/** The mismatches since the last call, emptied. */
export function takeMockContractErrors(): MockContractError[] {
  return contractErrors.splice(0);
}

/**
 * Checks `data` against the `data` schema of `key` and returns what the schema makes of it (the
 * wire form: the schemas parse JSON as it arrives). Throws {@link MockContractError} naming the call
 * and each issue's path when it does not match.
 */
export function checkMockData<K extends EndpointKey>(key: K, data: unknown): EndpointData<K> {
  const result = ENDPOINT_SCHEMAS[key].data.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    const error = new MockContractError(`mockApi('${key}'): the data does not match the contract: ${issues}`);
    contractErrors.push(error);
    throw error;
  }
  return data as EndpointData<K>;
}

/**
 * An MSW handler for the call `key`: `answer` is the `data` of every answer, or a function of the
 * request returning the data or a `Response`. Data is checked by {@link checkMockData}; a mismatch
 * rejects the handler, which MSW answers with a 500 and the test fails on the thrown error.
 */
export function mockApi<K extends EndpointKey>(
  key: K,
  answer: EndpointData<K> | ((req: MockRequest<K>) => MockAnswer<K> | Promise<MockAnswer<K>>),
): HttpHandler {
  let calls = 0;
  return http.post(`*${endpointPath(key)}`, async ({ request }) => {
    calls += 1;
    const out =
      typeof answer === 'function'
        ? await (answer as (req: MockRequest<K>) => MockAnswer<K> | Promise<MockAnswer<K>>)({
            body: (await request.clone().json().catch(() => ({}))) as EndpointBody<K>,
            request,
            call: calls,
          })
        : answer;
    if (out instanceof Response) return out;
    return HttpResponse.json(ok(checkMockData(key, out)));
  });
}

/** A failure envelope `{code, msg, reason}` with HTTP `status` (400 unless given). */
export function apiFailure(code: number, msg: string, reason: string, status = 400): Response {
  return HttpResponse.json(fail(code, msg, reason), { status });
}
