// Run before the stylesheet and the app, so a forced theme is on <html> at first paint: inline in the built page
// (allowed by its hash in the CSP), a same-origin file in development. Key and values: THEME_KEY and ThemeChoice in
// features/prefs/preferences.ts.
try {
  const theme = localStorage.getItem('manus.theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // storage refused (a private window): the system's theme applies
}
