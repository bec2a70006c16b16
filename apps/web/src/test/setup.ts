import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import i18n, { i18nReady } from '../lib/i18n';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';

// jsdom has no matchMedia; MUI's useMediaQuery needs it.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

// jsdom has no layout, so no elementFromPoint; react-big-calendar's selection asks it on every press
// inside the calendar. Nothing is under any point in jsdom.
if (!document.elementFromPoint) {
  document.elementFromPoint = () => null;
}

// Tests switch languages freely: every section of every locale is there before they run (the app
// loads them per route, lib/i18n.ts).
await i18nReady;
for (const [lang, strings] of Object.entries({ pt, en, es })) {
  i18n.addResourceBundle(lang, 'translation', strings, true, true);
}

afterEach(() => {
  cleanup();
  localStorage.clear();
});
