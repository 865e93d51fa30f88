/**
 * Light and dark themes: follows prefers-color-scheme until the user picks one with the toggle;
 * the choice is saved under `coffer-theme` and applied before paint by public/theme-init.js.
 */
export type ThemeChoice = 'light' | 'dark';
const THEME_KEY = 'coffer-theme';

/** The theme in effect now. */
export function currentTheme(): ThemeChoice {
  return document.documentElement.classList.contains('dark') ? 'dark' : 'light';
}

/** Applies and saves a theme choice. */
export function setTheme(theme: ThemeChoice): void {
  document.documentElement.classList.toggle('dark', theme === 'dark');
  try {
    localStorage.setItem(THEME_KEY, theme);
  } catch {
    /* storage unavailable: the choice lasts for this page only */
  }
}
