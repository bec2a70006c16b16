import Brightness4Icon from '@mui/icons-material/Brightness4';
import Brightness7Icon from '@mui/icons-material/Brightness7';
import MenuIcon from '@mui/icons-material/Menu';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import RefreshIcon from '@mui/icons-material/Refresh';
import StorefrontIcon from '@mui/icons-material/Storefront';
import { AppBar, Box, IconButton, Toolbar, Typography } from '@mui/material';
import { can } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AnnouncementsPopover } from '../../features/announcements/announcements-popover';
import { useCurrentUser } from '../../features/auth/session-context';
import { ChatsPopover } from '../../features/chats/chats-popover';
import { LanguageMenu } from '../../features/common/language-menu';
import { LazyTooltip } from '../../features/common/lazy-tooltip';
import { reloadPage } from '../../lib/browser';
import { OTHER_SERVICES_URL } from '../../lib/config';
import { formatDate } from '../../lib/format';
import { usePreferences } from '../../lib/preferences';
import { NotificationsPopover } from './notifications-popover';
import { UserMenu } from './user-menu';
import { VolumeControl } from './volume-control';

/**
 * The top bar (core section 2): menu toggle, greeting (admins also see the company due date),
 * admin plans and other-services buttons, language, colour mode, volume, refresh and profile menu.
 */
export function TopBar({ onToggleMenu, zIndex }: { onToggleMenu: () => void; zIndex: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { mode, toggleMode } = usePreferences();
  const admin = can(user.profile, 'topbar:plans');
  const dueDate = formatDate(user.company.dueDate);

  return (
    <AppBar position="fixed" sx={{ zIndex }} data-testid="top-bar">
      <Toolbar sx={{ gap: 0.5 }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label={t('topbar.toggleMenu')}
          data-testid="menu-toggle"
          onClick={onToggleMenu}
        >
          <MenuIcon />
        </IconButton>
        <Typography
          component="p"
          variant="subtitle1"
          noWrap
          sx={{ flex: 1, ml: 1, display: { xs: 'none', sm: 'block' } }}
          data-testid="greeting"
        >
          {admin && dueDate
            ? t('topbar.greetingDue', { name: user.name, company: user.company.name, dueDate })
            : t('topbar.greeting', { name: user.name, company: user.company.name })}
        </Typography>
        <Box sx={{ flex: { xs: 1, sm: 0 } }} />
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
        <ChatsPopover />
        <NotificationsPopover />
        <AnnouncementsPopover />
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
