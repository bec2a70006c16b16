import { cleanup } from '@testing-library/react';
import { LANGUAGES } from '@zapdesk/shared';
import { afterEach } from 'vitest';
import i18n, { loadFullLocales } from '../lib/i18n';

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

// Tests switch languages freely: every locale is loaded before they run.
await loadFullLocales();
await i18n.loadLanguages([...LANGUAGES]);

afterEach(() => {
  cleanup();
  localStorage.clear();
});
