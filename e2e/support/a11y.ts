/**
 * Accessibility check with axe-core (product §21: no serious or critical violation on any page).
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

export interface A11yViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Waits (at most `timeoutMs`) until no finite animation is running, so colours are at rest: a toast
 * fading in or out is half transparent and its contrast would depend on the moment. Endless
 * animations (spinners, skeleton pulses) are not waited for.
 */
export async function animationsAtRest(page: Page, timeoutMs = 2_000): Promise<void> {
  await page
    .waitForFunction(
      () =>
        document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
      null,
      { timeout: timeoutMs },
    )
    .catch(() => undefined);
}

/** The serious and critical axe violations of the page as it is now (WCAG 2.x A and AA rules), once animations are at rest. */
export async function seriousA11yViolations(page: Page): Promise<A11yViolation[]> {
  await animationsAtRest(page);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
}
