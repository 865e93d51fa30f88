/**
 * Accessibility check with axe-core (STYLE.md: no serious or critical violation on any page).
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface A11yViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** The serious and critical axe violations of the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
