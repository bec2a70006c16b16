/**
 * i18next setup (core section 1): pt, en and es, fallback pt; the initial language comes from local
 * storage `i18nextLng`, else English. Locale files live in src/locales and share the same keys.
 */
import { LANGUAGES, type Language, STORAGE_KEYS } from '@zapdesk/shared';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import es from '../locales/es.json';
import pt from '../locales/pt.json';

export const resources = {
  pt: { translation: pt },
  en: { translation: en },
  es: { translation: es },
} as const;

/** True for 'pt', 'en' or 'es'. */
export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The language stored in local storage (a stored 'pt-BR' counts as 'pt'), else 'en'. */
export function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEYS.language)?.slice(0, 2);
  return isLanguage(stored) ? stored : 'en';
}

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: 'pt',
  supportedLngs: [...LANGUAGES],
  interpolation: { escapeValue: false },
  returnNull: false,
});

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
