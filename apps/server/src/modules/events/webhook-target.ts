/**
 * Where a webhook may be sent (docs/decisions/0025-seller-events-and-webhooks.md, "SSRF"):
 * `checkWebhookUrl` when the URL is set, `resolveWebhookTarget` before every attempt.
 *
 * With `allowPrivate` off (the production default): https only, no credentials in the URL, and the
 * host must resolve only to public unicast addresses (loopback, private, link-local, CGNAT,
 * benchmark, multicast, reserved and unspecified ranges, IPv4 and IPv6, including IPv4-mapped IPv6,
 * are refused). With it on (development, tests): http is also allowed for localhost, 127.0.0.1 and
 * [::1], and any address may be reached.
 *
 * Not blocked: a host whose DNS answer changes between this check and the connection (DNS
 * rebinding); redirects are never followed, so a 3xx cannot lead elsewhere.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True when `address` (an IPv4 or IPv6 literal) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
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
    if (local || (isIP(host) && isPrivateAddress(host))) return { error: 'The URL must point to a public address' };
  }
  return { url: u.toString() };
}

/** Resolves a host to its addresses (injectable for tests). */
export type Resolver = (host: string) => Promise<string[]>;

export const dnsResolver: Resolver = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Checks the URL again before an attempt, resolving its host.
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
