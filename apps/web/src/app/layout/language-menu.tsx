import TranslateIcon from '@mui/icons-material/Translate';
import { IconButton, Menu, MenuItem, Tooltip } from '@mui/material';
import { LANGUAGES, type Language } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { usePreferences } from '../preferences';

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
      <Tooltip title={t('topbar.language')}>
        <IconButton
          color={color}
          aria-label={t('topbar.language')}
          aria-haspopup="menu"
          data-testid="language-menu-button"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <TranslateIcon />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((lang) => (
          <MenuItem
            key={lang}
            selected={lang === language}
            data-testid={`language-option-${lang}`}
            onClick={() => void choose(lang)}
          >
            {t(`languages.${lang}`)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
