// Run right after #root, so the first screen is in the page's language at first paint: inline in the built page
// (allowed by its hash in the CSP), a same-origin file in development. The build prerendered the first screen into
// #root in one language (data-prerendered) and into a template per other language; the app hydrates whichever is in
// #root. The language is resolved as resolvedLanguage() in features/prefs/preferences.ts does (key and values:
// LANGUAGE_KEY and LanguageChoice there): the stored choice, else Chinese when the system's languages include it, else
// English.
(() => {
  // Electron's preload bridge, or the token of `manus serve` in the URL or kept for this tab (pickClient, takeToken:
  // TOKEN_PARAM and TOKEN_STORAGE_KEY there)
  const canReachCore = () => {
    if (window.manus || new URLSearchParams(location.search).has('token')) return true;
    try {
      return sessionStorage.getItem('manus.token') !== null;
    } catch {
      return false;
    }
  };
  let stored = null;
  try {
    stored = localStorage.getItem('manus.language');
  } catch {
    // storage refused (a private window): the system's language applies
  }
  const system = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
  const language =
    stored === 'en' || stored === 'zh' ? stored : system.some((tag) => /^zh\b/i.test(tag || '')) ? 'zh' : 'en';
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
  const root = document.getElementById('root');
  const templates = document.querySelectorAll('template[data-first-screen]');
  if (root && root.dataset.prerendered && !canReachCore()) {
    // opened without its token: the app will ask for it, and shows nothing of itself before
    root.replaceChildren();
    delete root.dataset.prerendered;
  } else if (root && root.dataset.prerendered && root.dataset.prerendered !== language) {
    const page = [...templates].find((template) => template.dataset.firstScreen === language);
    // no page in that language: the app renders it from scratch
    if (page) {
      root.replaceChildren(document.importNode(page.content, true));
      root.dataset.prerendered = language;
      // a composer put in by script is not autofocused as a parsed one is: it takes the keys as in English
      if (document.activeElement === document.body) root.querySelector('[autofocus]')?.focus();
    } else {
      root.replaceChildren();
      delete root.dataset.prerendered;
    }
  }
  for (const template of templates) template.remove();
})();
