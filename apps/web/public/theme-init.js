// Applies the saved theme (or the system preference) before the first paint, so a dark-mode user
// never sees a white flash. An external file because the CSP forbids inline scripts.
(function () {
  try {
    var saved = localStorage.getItem('coffer-theme');
    var dark = saved === 'dark' || (saved !== 'light' && window.matchMedia('(prefers-color-scheme: dark)').matches);
    document.documentElement.classList.toggle('dark', dark);
  } catch {
    /* storage unavailable: keep the light theme */
  }
})();
