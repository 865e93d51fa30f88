/**
 * The two linters the OpenAPI document must pass without errors (docs/api.md "The API document",
 * docs/decisions/0068-api-document-linted.md), with the rules that do not fit Coffer turned off here,
 * each with its reason. openapi.test.ts runs both on the live document.
 *
 * - Redocly (`@redocly/openapi-core`, the engine of `@redocly/cli lint`): the `recommended` ruleset,
 *   configured in redocly.yaml at the repository root (which `redocly lint` reads too).
 * - Spectral (`@stoplight/spectral-core`): `@stoplight/spectral-owasp-ruleset`, every rule ('all').
 */
import { fileURLToPath } from 'node:url';
import { lintFromString, loadConfig } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import owaspModule from '@stoplight/spectral-owasp-ruleset';
import spectralParsers from '@stoplight/spectral-parsers';

/** The Redocly configuration, with the rules turned off and why: redocly.yaml at the repository root. */
export const REDOCLY_CONFIG = fileURLToPath(new URL('../../../../redocly.yaml', import.meta.url));

/** OWASP rules turned off, each with its reason (one line each). */
export const OWASP_OFF: Record<string, string> = {
  'owasp:api2:2023-write-restricted':
    'Every call is POST (product §3), so public reads and sign-up/sign-in are "writes" to the rule: they are public by design (security: []).',
  'owasp:api8:2023-define-cors-origin':
    'Coffer answers same-origin only: the web app is served by the API itself and no Access-Control-Allow-Origin header is sent.',
};

export interface LintProblem {
  /** 'error' | 'warn' | 'info' | 'hint' */
  severity: string;
  rule: string;
  message: string;
  /** JSON pointer (or dotted path) of the place in the document. */
  at: string;
}

/** Lints `doc` with Redocly's recommended ruleset as redocly.yaml configures it. */
export async function lintWithRedocly(doc: object): Promise<LintProblem[]> {
  const config = await loadConfig({ configPath: REDOCLY_CONFIG });
  const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
  return problems.map((p) => ({
    severity: p.severity,
    rule: p.ruleId,
    message: p.message,
    at: p.location?.[0]?.pointer ?? '?',
  }));
}

const SEVERITY = ['error', 'warn', 'info', 'hint'] as const;

/** Lints `doc` with Spectral and the OWASP API security ruleset (minus {@link OWASP_OFF}). */
export async function lintWithSpectral(doc: object): Promise<LintProblem[]> {
  const { Spectral, Document } = spectralCore;
  const owasp = (owaspModule as unknown as { default?: typeof owaspModule }).default ?? owaspModule;
  const spectral = new Spectral();
  spectral.setRuleset({
    extends: [[owasp as never, 'all']],
    rules: Object.fromEntries(Object.keys(OWASP_OFF).map((rule) => [rule, 'off'])),
  });
  const results = await spectral.run(new Document(JSON.stringify(doc), spectralParsers.Json, 'openapi.json'));
  return results.map((r) => ({
    severity: SEVERITY[r.severity] ?? String(r.severity),
    rule: String(r.code),
    message: r.message,
    at: r.path.join('.'),
  }));
}
