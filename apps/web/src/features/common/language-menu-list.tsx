import { Menu, MenuItem } from '@mui/material';
import { LANGUAGES, type Language } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';

interface LanguageMenuListProps {
  anchor: HTMLElement | null;
  /** The UI language, shown selected. */
  language: Language;
  onClose: () => void;
  onChoose: (language: Language) => void;
}

/** The language menu's items (pt, en, es): a chunk loaded when the menu first opens. */
export function LanguageMenuList({ anchor, language, onClose, onChoose }: LanguageMenuListProps) {
  const { t } = useTranslation();
  return (
    <Menu anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {LANGUAGES.map((lang) => (
        <MenuItem
          key={lang}
          selected={lang === language}
          data-testid={`language-option-${lang}`}
          onClick={() => onChoose(lang)}
        >
          {t(`languages.${lang}`)}
        </MenuItem>
      ))}
    </Menu>
  );
}
