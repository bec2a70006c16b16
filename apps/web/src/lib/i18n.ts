/**
 * i18next setup (core section 1): pt, en and es, fallback pt; the initial language comes from local
 * storage `i18nextLng`, else English. Locale files live in src/locales and share the same keys.
 *
 * The strings arrive in pieces (docs/web.md, "Web delivery", locales per route): the boot
 * strings of the UI language before the first render (the entry's and the login form's sections),
 * then each lazy root's sections (a page, the signed-in layout) with its code, through
 * `withStrings` in router.tsx. Only the UI language is loaded: every key exists in the three
 * languages (i18n.test.ts), so the pt fallback would never be read. Call sites keep
 * `t('section.key')` on the one default namespace.
 */
import { LANGUAGES, type Language, STORAGE_KEYS } from '@zapdesk/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { BOOT, type BootModule, initialLanguage, isLanguage, type Strings } from './i18n-boot';

export { initialLanguage, isLanguage };

/** Adds sections to a language's one namespace, keeping what is there. */
function addStrings(lang: Language, strings: Strings): void {
  i18n.addResourceBundle(lang, 'translation', strings, true, true);
}

const boots = new Map<Language, Promise<BootModule>>();
/** A language's boot module, its strings added (once per language). */
function loadBoot(lang: Language): Promise<BootModule> {
  let boot = boots.get(lang);
  if (!boot) {
    boot = BOOT[lang]().then((module) => {
      if (i18n.isInitialized) addStrings(lang, module.strings);
      return module;
    });
    boots.set(lang, boot);
    // A failed download may be retried by the next call.
    boot.catch(() => boots.delete(lang));
  }
  return boot;
}

const rootLoads = new Map<string, Promise<void>>();
/** Adds a root's sections in one language (once per root and language). */
function loadRoot(lang: Language, root: string): Promise<void> {
  const key = `${lang}|${root}`;
  let load = rootLoads.get(key);
  if (!load) {
    load = loadBoot(lang).then(async (boot) => {
      const chunk = boot.chunks[root];
      if (chunk) addStrings(lang, (await chunk()).default);
    });
    rootLoads.set(key, load);
    load.catch(() => rootLoads.delete(key));
  }
  return load;
}

/** The roots asked for so far: their strings follow a language change. */
const roots = new Set<string>();
/** The language being switched to, while changeLanguage() loads its strings. */
let switchingTo: Language | null = null;

/**
 * Resolves once the UI language's boot strings are loaded; render after it. Should their chunk
 * fail to download, i18next still starts (without them; the next root's load fetches them again).
 */
export const i18nReady: Promise<void> = (async () => {
  const lng = initialLanguage();
  const strings = await loadBoot(lng).then(
    (boot) => boot.strings,
    (): Strings => ({}),
  );
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: 'pt',
    supportedLngs: [...LANGUAGES],
    // A copy: i18next merges later sections into the object it is given.
    resources: { [lng]: { translation: { ...strings } } },
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
})();

/**
 * Loads the strings a lazy root needs (`root`: its path under src without extension, such as
 * `features/tickets/tickets-page`; locale-sections.ts) in the UI language (and in the language
 * being switched to), after the boot strings. A root without extra sections resolves at once.
 */
export function loadStrings(root: string): Promise<void> {
  roots.add(root);
  return i18nReady.then(async () => {
    const langs = new Set([currentLanguage(), ...(switchingTo ? [switchingTo] : [])]);
    await Promise.all([...langs].map((lang) => loadRoot(lang, root)));
  });
}

/**
 * A lazy root's module once both its code and its strings are loaded: `lazy(() =>
 * withStrings('features/x/x-page', import('../features/x/x-page')).then(...))`, so the page renders
 * with its words (Suspense shows the loader meanwhile). The key is the import's path under src.
 */
export async function withStrings<T>(root: string, module: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([module, loadStrings(root)]);
  return loaded;
}

/**
 * Loads every string of `lang` asked for so far (boot and roots), then switches the UI language
 * and remembers it in local storage.
 */
export async function changeLanguage(lang: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEYS.language, lang);
  switchingTo = lang;
  try {
    await i18nReady;
    await loadBoot(lang);
    await Promise.all([...roots].map((root) => loadRoot(lang, root)));
    await i18n.changeLanguage(lang);
  } finally {
    if (switchingTo === lang) switchingTo = null;
  }
}

/** The current UI language. */
export function currentLanguage(): Language {
  const lang = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lang) ? lang : 'pt';
}

export default i18n;
