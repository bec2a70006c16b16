/**
 * User interface preferences kept in the browser: colour mode (`preferredTheme`, default the system
 * preference), notification volume (`volume`, 0..1, default 1) and the language (`i18nextLng`).
 */
import { type Language, STORAGE_KEYS } from '@zapdesk/shared';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import i18n, { changeLanguage, currentLanguage } from './i18n';
import type { ColorMode } from './theme';

interface PreferencesValue {
  mode: ColorMode;
  toggleMode: () => void;
  volume: number;
  setVolume: (volume: number) => void;
  language: Language;
  setLanguage: (lang: Language) => Promise<void>;
}

const PreferencesContext = createContext<PreferencesValue | null>(null);

const readMode = (): ColorMode | null => {
  const stored = localStorage.getItem(STORAGE_KEYS.theme);
  return stored === 'light' || stored === 'dark' ? stored : null;
};

/**
 * A volume clamped to 0..1 and rounded to the slider's step of 0.1 (so 0.6000000000000001, a sum of
 * steps, is 0.6); 1 when it is not a number.
 */
export function roundVolume(value: number): number {
  return Number.isFinite(value) ? Math.round(Math.min(1, Math.max(0, value)) * 10) / 10 : 1;
}

/** The stored volume clamped to 0..1 and rounded to 0.1, default 1. */
export function readVolume(): number {
  const raw = localStorage.getItem(STORAGE_KEYS.volume);
  return roundVolume(raw === null ? 1 : Number(raw));
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

/** True while the system prefers a dark colour scheme (false where matchMedia is missing). */
function usePrefersDark(): boolean {
  const [dark, setDark] = useState(
    () => typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches,
  );
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    const query = window.matchMedia(DARK_QUERY);
    const onChange = () => setDark(query.matches);
    onChange();
    query.addEventListener?.('change', onChange);
    return () => query.removeEventListener?.('change', onChange);
  }, []);
  return dark;
}

/**
 * Provides the preferences. No MUI here: the MUI theme built from them is `AppThemeProvider`
 * (app-theme.tsx), loaded with the MUI pages, so the login form needs no MUI (docs/web.md,
 * "Web delivery").
 */
export function PreferencesProvider({ children }: { children: ReactNode }) {
  const prefersDark = usePrefersDark();
  const [storedMode, setStoredMode] = useState<ColorMode | null>(readMode);
  const [volume, setVolumeState] = useState(readVolume);
  const [language, setLanguageState] = useState<Language>(currentLanguage);
  const mode: ColorMode = storedMode ?? (prefersDark ? 'dark' : 'light');

  useEffect(() => {
    const onChange = () => {
      setLanguageState(currentLanguage());
      document.documentElement.lang = currentLanguage() === 'pt' ? 'pt-BR' : currentLanguage();
    };
    onChange();
    i18n.on('languageChanged', onChange);
    return () => i18n.off('languageChanged', onChange);
  }, []);

  const toggleMode = useCallback(() => {
    const next: ColorMode = mode === 'light' ? 'dark' : 'light';
    localStorage.setItem(STORAGE_KEYS.theme, next);
    setStoredMode(next);
  }, [mode]);

  const setVolume = useCallback((value: number) => {
    const next = roundVolume(value);
    localStorage.setItem(STORAGE_KEYS.volume, String(next));
    setVolumeState(next);
  }, []);

  const value = useMemo<PreferencesValue>(
    () => ({ mode, toggleMode, volume, setVolume, language, setLanguage: changeLanguage }),
    [mode, toggleMode, volume, setVolume, language],
  );
  useEffect(() => {
    document.documentElement.dataset.mode = mode;
  }, [mode]);

  return <PreferencesContext.Provider value={value}>{children}</PreferencesContext.Provider>;
}

/** The current preferences; must be used under PreferencesProvider. */
export function usePreferences(): PreferencesValue {
  const value = useContext(PreferencesContext);
  if (!value) throw new Error('usePreferences outside PreferencesProvider');
  return value;
}
