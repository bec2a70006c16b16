/**
 * The UI language's boot strings (core section 1; lib/i18n.ts sets i18next up with them): the
 * language chosen at start and the loader of each language's boot chunk (locale-plugin.ts). Kept
 * apart from i18next, so the page's first script can start their download before the entry it
 * picks arrives (app/entry.ts).
 */
import { LANGUAGES, type Language, STORAGE_KEYS } from '@zapdesk/shared';

/** Locale sections by name, as the locale chunks hold them. */
export type Strings = { [section: string]: unknown };

/** A language's boot chunk: its boot strings and a loader per lazy root with more sections. */
export interface BootModule {
  strings: Strings;
  chunks: { [root: string]: () => Promise<{ default: Strings }> };
}

/** Each language's boot strings and root loaders: a small chunk of their own (locale-plugin.ts). */
export const BOOT: Record<Language, () => Promise<BootModule>> = {
  pt: () => import('virtual:locale/pt/boot'),
  en: () => import('virtual:locale/en/boot'),
  es: () => import('virtual:locale/es/boot'),
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

/**
 * Starts downloading the initial language's boot strings; lib/i18n.ts's later import of the same
 * chunk gets the same module. A failure is left to that import.
 */
export function prefetchBootStrings(): void {
  BOOT[initialLanguage()]().catch(() => undefined);
}
