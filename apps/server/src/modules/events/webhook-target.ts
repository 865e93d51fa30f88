/**
 * Where a webhook may be sent (docs/decisions/0025-seller-events-and-webhooks.md, "SSRF"; docs/abuse.md
 * "Webhook targets"): `checkWebhookUrl` when the URL is set, `resolveWebhookTarget` before every
 * attempt, and {@link pinnedWebhookFetch}, whose connections go only to an address checked at
 * connect time.
 *
 * With `allowPrivate` off (the default in every mode; only `WEBHOOK_ALLOW_PRIVATE=true` turns it
 * on): https only, no credentials in the URL, and the host must resolve only to public unicast
 * addresses. "Public unicast" is ipaddr.js's `range() === 'unicast'` after `ipaddr.process` (which
 * turns an IPv4-mapped IPv6 address into its IPv4 address): every special-purpose range of RFC 6890
 * and its successors is refused — loopback, private, link-local, CGNAT, TEST-NETs, benchmarking,
 * multicast, reserved, unspecified, broadcast; on IPv6 also unique-local, NAT64 (64:ff9b::/96 and
 * 64:ff9b:1::/48), 6to4 (2002::/16), Teredo (2001::/32), discard-only, documentation and ORCHID.
 * IPv4-compatible IPv6 addresses (`::a.b.c.d`, deprecated by RFC 4291) are refused whole. Any
 * numeric host spelling (`2130706433`, `0x7f.1`, `017700000001`) is normalised by the URL parser
 * first, and ipaddr.js parses the rest. With it on (development, tests): http is also allowed for
 * localhost, 127.0.0.1 and [::1], and any address may be reached.
 *
 * DNS rebinding: the connection's own lookup ({@link pinnedWebhookFetch}) resolves the name once,
 * checks every address, and hands the checked addresses to the socket, so the address connected to
 * is the one that was checked. Redirects are never followed (`redirect: 'manual'`).
 */
import { lookup, Resolver as DnsResolver } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * True when `address` (an IPv4 or IPv6 literal, any spelling ipaddr.js parses) is not a public
 * unicast address; also true for anything that is not an address at all.
 */
export function isPrivateAddress(address: string): boolean {
  const literal = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(literal)) return true;
  // An IPv6 literal with an embedded dotted quad is public only as the IPv4-mapped ::ffff:a.b.c.d
  // (judged by its IPv4 address below): the IPv4-compatible ::a.b.c.d (deprecated, RFC 4291) and
  // SIIT's ::ffff:0:a.b.c.d are refused whole (ipaddr.js reads ::a.b.c.d as if it were mapped).
  if (literal.includes(':') && literal.includes('.') && !/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(literal)) return true;
  const parsed = ipaddr.parse(literal);
  if (parsed.kind() === 'ipv6') {
    // The same forms written in hex (::7f00:1, ::ffff:0:7f00:1): ::/96 and ::ffff:0:0:0/96.
    const [a, b, c, d, e, f] = (parsed as ipaddr.IPv6).parts;
    if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0) return true;
    if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0xffff && f === 0) return true;
  }
  return ipaddr.process(literal).range() !== 'unicast';
}

/**
 * Checks a webhook URL as the seller sets it.
 * @returns the normalized URL, or the reason it is refused (shown to the seller)
 */
export function checkWebhookUrl(text: string, allowPrivate: boolean): { url: string } | { error: string } {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { error: 'Enter a valid URL' };
  }
  if (u.username || u.password) return { error: 'The URL must not contain a user name or password' };
  const local = LOCAL_HOSTS.has(u.hostname);
  if (u.protocol !== 'https:' && !(u.protocol === 'http:' && allowPrivate && local)) {
    return { error: 'The URL must start with https://' };
  }
  if (!allowPrivate) {
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (local || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host))) {
      return { error: 'The URL must point to a public address' };
    }
  }
  return { url: u.toString() };
}

/** Resolves a host to its addresses (injectable for tests). */
export type Resolver = (host: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * A {@link Resolver} that asks the system's DNS servers with c-ares (`dns.Resolver`: A and AAAA
 * records, no hosts file), which runs on the event loop. {@link dnsResolver} (`getaddrinfo`) holds
 * one of libuv's 4 pool threads for as long as a lookup lasts, and the server hashes passwords and
 * reads files on the same threads: with deliveries to many sellers at once, a few hosts whose DNS
 * never answers would stall everyone (docs/abuse.md "Webhook delivery"). Each query gives up after
 * `timeoutMs` per try, `tries` tries.
 * @param options.servers `host:port` servers instead of the system's (tests)
 * @returns the host's IPv4 and IPv6 addresses; rejects with the lookup's error (`code` ENOTFOUND,
 *   ENODATA, ETIMEOUT...) when it has none
 */
export function publicDnsResolver(options: { timeoutMs?: number; tries?: number; servers?: string[] } = {}): Resolver {
  const dns = new DnsResolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
  if (options.servers) dns.setServers(options.servers);
  return async (host) => {
    const [v4, v6] = await Promise.allSettled([dns.resolve4(host), dns.resolve6(host)]);
    const addresses = [...(v4.status === 'fulfilled' ? v4.value : []), ...(v6.status === 'fulfilled' ? v6.value : [])];
    if (addresses.length) return addresses;
    throw v4.status === 'rejected' ? v4.reason : v6.status === 'rejected' ? v6.reason : Object.assign(new Error(`no address for ${host}`), { code: 'ENODATA' });
  };
}

/**
 * Checks the URL again before an attempt, resolving its host (an early, readable refusal; the
 * connection itself is checked again by {@link pinnedWebhookFetch}).
 * @returns null when it may be sent, else the reason ('blocked address', 'dns: ...')
 */
export async function resolveWebhookTarget(url: string, allowPrivate: boolean, resolve: Resolver): Promise<string | null> {
  const checked = checkWebhookUrl(url, allowPrivate);
  if ('error' in checked) return checked.error;
  if (allowPrivate) return null;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch (err) {
    return `dns: ${(err as { code?: string }).code ?? 'lookup failed'}`;
  }
  if (!addresses.length || addresses.some(isPrivateAddress)) return 'blocked address';
  return null;
}

/** The error a connection to a refused address fails with (`cause.code` of the fetch error). */
export const BLOCKED_ADDRESS_CODE = 'EBLOCKEDADDRESS';

/**
 * A socket `lookup` that resolves the name once with `resolve`, refuses it (error code
 * {@link BLOCKED_ADDRESS_CODE}) when any address is not public unicast, and otherwise answers
 * exactly the addresses it checked — the socket connects to one of them, never to a second answer.
 */
export function checkedLookup(resolve: Resolver, allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    const host = hostname.replace(/^\[|\]$/g, '');
    const found = isIP(host) ? Promise.resolve([host]) : resolve(host);
    found.then(
      (addresses) => {
        if (!addresses.length || (!allowPrivate && addresses.some(isPrivateAddress))) {
          const err = Object.assign(new Error(`blocked address for ${host}`), { code: BLOCKED_ADDRESS_CODE });
          callback(err, '', 4);
          return;
        }
        const all = addresses.map((address) => ({ address, family: isIP(address) }));
        if (options.all) (callback as unknown as (e: null, a: typeof all) => void)(null, all);
        else callback(null, all[0]!.address, all[0]!.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, '', 4),
    );
  };
}

/**
 * `fetch` for webhook deliveries whose every connection goes through {@link checkedLookup}
 * (undici's own fetch with an Agent whose `connect.lookup` is the checked one).
 *
 * undici (about 5 MB of heap) is imported on the first delivery, not at start-up: a server whose
 * sellers have no webhooks never loads it (docs/operations.md "Memory"). A failed import is not
 * kept: that delivery rejects with the import's error (and is retried on its schedule), the next one
 * imports again.
 * @param importUndici how undici is imported (the tests inject a failure here)
 */
export function pinnedWebhookFetch(
  resolve: Resolver,
  allowPrivate: boolean,
  importUndici: () => Promise<typeof import('undici')> = () => import('undici'),
): typeof fetch {
  let client: Promise<{ fetch: typeof import('undici').fetch; dispatcher: import('undici').Agent }> | undefined;
  const load = () =>
    (client ??= importUndici().then(
      ({ Agent, fetch }) => ({ fetch, dispatcher: new Agent({ connect: { lookup: checkedLookup(resolve, allowPrivate) } }) }),
      (err: unknown) => {
        client = undefined;
        throw err;
      },
    ));
  return (async (input: string | URL, init?: RequestInit) => {
    const { fetch, dispatcher } = await load();
    return fetch(input, { ...(init as object), dispatcher } as Parameters<typeof fetch>[1]);
  }) as unknown as typeof fetch;
}
