import TranslateIcon from '@mui/icons-material/Translate';
import { IconButton } from '@mui/material';
import type { Language } from '@zapdesk/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { usePreferences } from '../../lib/preferences';
import { LazyTooltip } from './lazy-tooltip';

/** The menu itself (MUI Menu, Popover, Modal) loads when it is first opened. */
const LanguageMenuList = lazy(() =>
  import('./language-menu-list').then((m) => ({ default: m.LanguageMenuList })),
);

interface LanguageMenuProps {
  /** When true (signed in), the choice is also saved on the server: POST /users/set-language/:lang. */
  persist?: boolean;
  color?: 'inherit' | 'default';
}

/**
 * Switches the UI language (stored as `i18nextLng`); with `persist` (signed in) also saves it on the
 * server (POST /users/set-language/:lang), never interrupting the user when that fails.
 */
export function useLanguageChoice(persist: boolean): (lang: Language) => Promise<void> {
  const { setLanguage } = usePreferences();
  return async (lang: Language) => {
    await setLanguage(lang);
    if (persist) api.post(`/users/set-language/${lang}`).catch((err: unknown) => console.error(err));
  };
}

/** Language menu (pt, en, es); the choice is stored as `i18nextLng`. */
export function LanguageMenu({ persist = false, color = 'inherit' }: LanguageMenuProps) {
  const { t } = useTranslation();
  const { language } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuUsed, setMenuUsed] = useState(false);
  const setLanguage = useLanguageChoice(persist);

  const choose = async (lang: Language) => {
    setAnchor(null);
    await setLanguage(lang);
  };

  return (
    <>
      <LazyTooltip title={t('topbar.language')}>
        <IconButton
          color={color}
          aria-label={t('topbar.language')}
          aria-haspopup="menu"
          data-testid="language-menu-button"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            setMenuUsed(true);
          }}
        >
          <TranslateIcon />
        </IconButton>
      </LazyTooltip>
      {menuUsed && (
        <Suspense fallback={null}>
          <LanguageMenuList
            anchor={anchor}
            language={language}
            onClose={() => setAnchor(null)}
            onChoose={(lang) => void choose(lang)}
          />
        </Suspense>
      )}
    </>
  );
}
