/**
 * The device of a session, read from its User-Agent header (product §26 session list), e.g.
 * 'Chrome on macOS' or 'Safari on iPhone'. A small parser of the browsers and systems that matter
 * rather than a full user-agent database: the label is shown to the user and keys the new-device
 * mail (known_devices), so it must be stable across browser updates (no version numbers) and never
 * fail. Order matters: Edge and Opera say "Chrome", Chrome says "Safari".
 */
import { createHash } from 'node:crypto';

/** The longest User-Agent kept, in characters. */
export const USER_AGENT_MAX = 512;

const BROWSERS: readonly [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\/|Chromium\//, 'Chrome'],
  [/Safari\//, 'Safari'],
  [/curl\//, 'curl'],
  [/node|undici/i, 'Node.js'],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** 'Browser on System', one of them alone, or 'Unknown device'. */
export function deviceLabel(userAgent: string | undefined | null): string {
  const ua = (userAgent ?? '').slice(0, USER_AGENT_MAX);
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/** The key of a device in known_devices: SHA-256 hex of its label. */
export function deviceKey(label: string): string {
  return createHash('sha256').update(label).digest('hex');
}
