import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import RefreshIcon from '@mui/icons-material/Refresh';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { IconButton } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LanguageMenu } from '../../features/common/language-menu';
import { LazyTooltip } from '../../features/common/lazy-tooltip';
import { reloadPage } from '../../lib/browser';
import { OTHER_SERVICES_URL } from '../../lib/config';
import { usePreferences } from '../../lib/preferences';
import { AvailabilitySwitch } from './availability-switch';
import { VolumeControl } from './volume-control';

/**
 * The top bar's settings buttons on wide screens: the availability switch, plans and other services (admins), language,
 * colour mode, volume and refresh. A chunk of its own, loaded after the shell's first render (on
 * phones the 'more' menu stands in for it).
 */
export function TopBarSettings({ admin }: { admin: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { mode, toggleMode } = usePreferences();
  return (
    <>
      <AvailabilitySwitch />
      {admin && (
        <>
          <LazyTooltip title={t('topbar.plans')}>
            <IconButton
              color="inherit"
              aria-label={t('topbar.plans')}
              data-testid="plans-button"
              onClick={() => navigate('/planos')}
            >
              <ReceiptLongIcon />
            </IconButton>
          </LazyTooltip>
          <LazyTooltip title={t('topbar.otherServices')}>
            <IconButton
              color="inherit"
              aria-label={t('topbar.otherServices')}
              data-testid="other-services-button"
              component="a"
              href={OTHER_SERVICES_URL}
              target="_blank"
              rel="noopener noreferrer"
            >
              <StorefrontIcon />
            </IconButton>
          </LazyTooltip>
        </>
      )}
      <LanguageMenu persist />
      <LazyTooltip title={mode === 'dark' ? t('topbar.themeLight') : t('topbar.themeDark')}>
        <IconButton
          color="inherit"
          aria-label={mode === 'dark' ? t('topbar.themeLight') : t('topbar.themeDark')}
          data-testid="theme-toggle"
          onClick={toggleMode}
        >
          {mode === 'dark' ? <Brightness7Icon /> : <Brightness4Icon />}
        </IconButton>
      </LazyTooltip>
      <VolumeControl />
      <LazyTooltip title={t('topbar.refresh')}>
        <IconButton
          color="inherit"
          aria-label={t('topbar.refresh')}
          data-testid="refresh-button"
          onClick={reloadPage}
        >
          <RefreshIcon />
        </IconButton>
      </LazyTooltip>
    </>
  );
}
