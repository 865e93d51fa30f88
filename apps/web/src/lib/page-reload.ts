/**
 * Reloads the document (`window.location.reload()`), for the error screens' Try again and Refresh
 * page (product §2). Held in an object so a test can replace `pageReload.reload`: jsdom's
 * `window.location` cannot be redefined or spied on where the window is the test's global (vitest's
 * `vmThreads` pool, apps/web/vitest.config.ts).
 */
export const pageReload = {
  reload(): void {
    window.location.reload();
  },
};
