import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import RefreshIcon from '@mui/icons-material/Refresh';
import StorefrontIcon from '@mui/icons-material/Storefront';
import TranslateIcon from '@mui/icons-material/Translate';
import VolumeOffIcon from '@mui/icons-material/VolumeOff';
import VolumeUpIcon from '@mui/icons-material/VolumeUp';
import { ListItemIcon, ListItemText, Menu, MenuItem } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLanguageChoice } from '../../features/common/language-menu';
import { LanguageMenuList } from '../../features/common/language-menu-list';
import { AvailabilityDot } from '../../features/users/availability-dot';
import { reloadPage } from '../../lib/browser';
import { OTHER_SERVICES_URL } from '../../lib/config';
import { usePreferences } from '../../lib/preferences';
import { useAvailability } from './use-availability';
import { VolumePopover } from './volume-popover';

/** What the overflow shows: its menu, the language list or the volume slider (all under the button). */
export type OverflowPanel = 'menu' | 'language' | 'volume';

interface TopBarOverflowMenuProps {
  /** The 'more' button the panels open under. */
  anchor: HTMLElement | null;
  /** The panel shown; null when all are closed. */
  panel: OverflowPanel | null;
  onPanel: (panel: OverflowPanel | null) => void;
  /** Admins also get plans and other services. */
  admin: boolean;
}

/**
 * The top bar's folded buttons on phones (a chunk loaded when first opened): the availability
 * switch, plans and other services for admins, then language, colour mode, volume and refresh, each doing what its wide
 * screen button does.
 */
export function TopBarOverflowMenu({ anchor, panel, onPanel, admin }: TopBarOverflowMenuProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mode, toggleMode, volume, language } = usePreferences();
  const chooseLanguage = useLanguageChoice(true);
  const close = () => onPanel(null);
  const themeLabel = mode === 'dark' ? t('topbar.themeLight') : t('topbar.themeDark');
  const availability = useAvailability();
  const status = t(`topbar.availability.${availability.current}`);

  return (
    <>
      <Menu
        anchorEl={anchor}
        open={panel === 'menu'}
        onClose={close}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ list: { 'data-testid': 'top-bar-more-menu' } as object }}
      >
        <MenuItem
          data-testid="more-availability"
          data-availability={availability.current}
          aria-label={t('topbar.availability.switch', { status })}
          disabled={availability.busy}
          onClick={() => {
            close();
            availability.toggle();
          }}
        >
          <ListItemIcon>
            <AvailabilityDot availability={availability.current} />
          </ListItemIcon>
          <ListItemText>{status}</ListItemText>
        </MenuItem>
        {admin && (
          <MenuItem
            data-testid="more-plans"
            onClick={() => {
              close();
              navigate('/planos');
            }}
          >
            <ListItemIcon>
              <ReceiptLongIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('topbar.plans')}</ListItemText>
          </MenuItem>
        )}
        {admin && (
          <MenuItem
            component="a"
            href={OTHER_SERVICES_URL}
            target="_blank"
            rel="noopener noreferrer"
            data-testid="more-other-services"
            onClick={close}
          >
            <ListItemIcon>
              <StorefrontIcon fontSize="small" />
            </ListItemIcon>
            <ListItemText>{t('topbar.otherServices')}</ListItemText>
          </MenuItem>
        )}
        <MenuItem data-testid="more-language" onClick={() => onPanel('language')}>
          <ListItemIcon>
            <TranslateIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('topbar.language')}</ListItemText>
        </MenuItem>
        <MenuItem
          data-testid="more-theme"
          onClick={() => {
            close();
            toggleMode();
          }}
        >
          <ListItemIcon>
            {mode === 'dark' ? <Brightness7Icon fontSize="small" /> : <Brightness4Icon fontSize="small" />}
          </ListItemIcon>
          <ListItemText>{themeLabel}</ListItemText>
        </MenuItem>
        <MenuItem data-testid="more-volume" onClick={() => onPanel('volume')}>
          <ListItemIcon>
            {volume === 0 ? <VolumeOffIcon fontSize="small" /> : <VolumeUpIcon fontSize="small" />}
          </ListItemIcon>
          <ListItemText>{t('topbar.volume')}</ListItemText>
        </MenuItem>
        <MenuItem data-testid="more-refresh" onClick={reloadPage}>
          <ListItemIcon>
            <RefreshIcon fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t('topbar.refresh')}</ListItemText>
        </MenuItem>
      </Menu>
      <LanguageMenuList
        anchor={panel === 'language' ? anchor : null}
        language={language}
        onClose={close}
        onChoose={(lang) => {
          close();
          void chooseLanguage(lang);
        }}
      />
      <VolumePopover anchor={panel === 'volume' ? anchor : null} onClose={close} />
    </>
  );
}
