/**
 * The web font, loaded once the first screen has been shown (issue 16,
 * docs/decisions/0044-first-screen-before-the-font.md).
 *
 * Inter's files (48 kB for Latin) are not needed to paint anything: until they arrive, text is set
 * in 'Inter Fallback', a local sans-serif scaled to Inter's metrics (src/index.css), so the swap
 * moves nothing. Requested together with the first screen they take a phone's bandwidth from the
 * JavaScript, the data and the banner the first screen is waiting for; requested after it, they
 * cost the first screen nothing.
 */
import { afterFirstScreen } from './after-first-screen';

/** The stylesheet that declares Inter's `@font-face`s (its own chunk: src/styles/inter.css). */
export const importFontStyles = () => import('../styles/inter.css');

/** Loads Inter's stylesheet after the first screen ({@link afterFirstScreen}); returns the cancel. */
export function loadFontsAfterFirstScreen(): () => void {
  return afterFirstScreen(importFontStyles);
}
