/**
 * i18next setup (core section 1): pt, en and es, fallback pt; the initial language comes from local
 * storage `i18nextLng`, else English. Locale files live in src/locales and share the same keys.
 */
import { LANGUAGES, type Language, STORAGE_KEYS } from '@zapdesk/shared';
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

/**
 * Each language's strings are a chunk of their own, fetched on demand: the first page loads only
 * the UI language and the pt fallback (docs/architecture.md, "Web delivery").
 */
const LOCALES: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  pt: () => import('../locales/pt.json'),
  en: () => import('../locales/en.json'),
  es: () => import('../locales/es.json'),
};

/**
 * The login form's first render reads only these small subsets (the sections named in
 * locale-boot-plugin.ts); `loadFullLocales()` swaps in the full chunks before any other page.
 */
const BOOT_LOCALES: Record<Language, () => Promise<{ default: ResourceKey }>> = {
  pt: () => import('virtual:boot-locale/pt'),
  en: () => import('virtual:boot-locale/en'),
  es: () => import('virtual:boot-locale/es'),
};

/** False until loadFullLocales() is called: the backend then reads the full chunks. */
let full = false;

/** An i18next backend that reads the locale chunks above. */
const localeChunks: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(null, {});
    (full ? LOCALES : BOOT_LOCALES)[language]().then(
      (module) => callback(null, module.default),
      (error: Error) => callback(error, false),
    );
  },
};

/** True for 'pt', 'en' or 'es'. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language stored in local storage (a stored 'pt-BR' counts as 'pt'), else 'en'. */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEYS.language)?.slice(0, 2);
  return isLanguage(stored) ? stored : 'en';
}

/** Resolves once the UI language's strings (and the fallback's) are loaded; render after it. */
export const i18nReady: Promise<void> = i18n
  .use(localeChunks)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    fallbackLng: 'pt',
    supportedLngs: [...LANGUAGES],
    interpolation: { escapeValue: false },
    returnNull: false,
    // Re-render when the full strings replace the first-render subset.
    react: { bindI18n: 'languageChanged loaded' },
  })
  .then(() => undefined);

let fullLoad: Promise<void> | null = null;

/**
 * Loads the full strings of the loaded languages (the UI language and the pt fallback) in place of
 * the first-render subset, and makes every later language load full. Idempotent; call it before
 * rendering anything but the login form (router.tsx awaits it with each lazy page's chunk).
 */
export function loadFullLocales(): Promise<void> {
  fullLoad ??= i18nReady.then(() => {
    full = true;
    return i18n.reloadResources();
  });
  return fullLoad;
}

/** Switches the UI language and remembers it in local storage. */
export async function changeLanguage(lang: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  await i18n.changeLanguage(lang);
}

/** The current UI language. */
export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lang) ? lang : 'pt';
}

export default i18n;
