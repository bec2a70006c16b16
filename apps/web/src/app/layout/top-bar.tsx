import MenuIcon from '@mui/icons-material/Menu';
import { AppBar, Box, IconButton, Toolbar, Typography } from '@mui/material';
import { can } from '@zapdesk/shared';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { AnnouncementsPopover } from '../../features/announcements/announcements-popover';
import { useCurrentUser } from '../../features/auth/session-context';
import { ChatsPopover } from '../../features/chats/chats-popover';
import { formatDate } from '../../lib/format';
import { NotificationsPopover } from './notifications-popover';
import { UserMenu } from './user-menu';

/** The wide screen's settings buttons, loaded after the shell's first render. */
const TopBarSettings = lazy(() => import('./top-bar-settings').then((m) => ({ default: m.TopBarSettings })));

/** The phone's 'more' button and its menu, loaded after the shell's first render. */
const TopBarOverflow = lazy(() => import('./top-bar-overflow').then((m) => ({ default: m.TopBarOverflow })));

interface TopBarProps {
  onToggleMenu: () => void;
  zIndex: number;
  /** Phones (under 600 px): plans, other services, language, colour mode, volume and refresh fold into a 'more' menu. */
  compact?: boolean;
}

/**
 * The top bar (core section 2): menu toggle, greeting (admins also see the company due date),
 * admin plans and other-services buttons, language, colour mode, volume, refresh and profile menu.
 * On phones (`compact`) the greeting hides and the settings buttons fold into a 'more' menu, so
 * the internal chats, notifications, announcements and profile menu stay on screen at 360 px.
 */
export function TopBar({ onToggleMenu, zIndex, compact = false }: TopBarProps) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const admin = can(user.profile, 'topbar:plans');
  const dueDate = formatDate(user.company.dueDate);

  return (
    <AppBar position="fixed" sx={{ zIndex }} data-testid="top-bar">
      <Toolbar sx={{ gap: { xs: 0, sm: 0.5 } }}>
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
        {!compact && (
          <Suspense fallback={null}>
            <TopBarSettings admin={admin} />
          </Suspense>
        )}
        <ChatsPopover />
        <NotificationsPopover />
        <AnnouncementsPopover />
        {compact && (
          <Suspense fallback={null}>
            <TopBarOverflow admin={admin} />
          </Suspense>
        )}
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
