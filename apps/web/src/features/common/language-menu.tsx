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

/** Language menu (pt, en, es); the choice is stored as `i18nextLng`. */
export function LanguageMenu({ persist = false, color = 'inherit' }: LanguageMenuProps) {
  const { t } = useTranslation();
  const { language, setLanguage } = usePreferences();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuUsed, setMenuUsed] = useState(false);

  const choose = async (lang: Language) => {
    setAnchor(null);
    await setLanguage(lang);
    if (persist) {
      // A failure to save the choice on the server is not worth interrupting the user.
      api.post(`/users/set-language/${lang}`).catch((err: unknown) => console.error(err));
    }
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
