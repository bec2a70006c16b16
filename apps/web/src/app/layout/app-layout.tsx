import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import { Box, Divider, Drawer, IconButton, Toolbar, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../../features/auth/session-context';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

/** The realtime connection (socket.io client, the caches' event handlers): fetched after the shell renders. */
const Realtime = lazy(() => import('../use-realtime').then((m) => ({ default: m.Realtime })));

export const DRAWER_WIDTH = 240;
const MINI_WIDTH = 60;
/** The menu opens by itself above this window width (core section 2). */
export const AUTO_OPEN_WIDTH = 1200;

/**
 * Shell of the private pages: top bar, side menu and the page. The menu is a temporary (overlay)
 * drawer under 600 px; wider, it is permanent and collapses to icons.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const user = useCurrentUser();
  const small = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useState(() => window.innerWidth > AUTO_OPEN_WIDTH);

  const header = (
    <Toolbar sx={{ justifyContent: 'flex-end' }}>
      <IconButton aria-label={t('topbar.closeMenu')} onClick={() => setOpen(false)}>
        <ChevronLeftIcon />
      </IconButton>
    </Toolbar>
  );
  const width = open ? DRAWER_WIDTH : MINI_WIDTH;

  return (
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Suspense fallback={null}>
        <Realtime user={user} />
      </Suspense>
      <TopBar onToggleMenu={() => setOpen((o) => !o)} zIndex={theme.zIndex.drawer + (small ? 0 : 1)} />
      {small ? (
        <Drawer
          variant="temporary"
          open={open}
          onClose={() => setOpen(false)}
          ModalProps={{ keepMounted: true }}
          slotProps={{ paper: { sx: { width: DRAWER_WIDTH } } }}
        >
          {header}
          <Divider />
          <SideMenu user={user} expanded onNavigate={() => setOpen(false)} />
        </Drawer>
      ) : (
        <Drawer
          variant="permanent"
          open={open}
          sx={{ width, flexShrink: 0, transition: theme.transitions.create('width') }}
          slotProps={{
            paper: {
              sx: { width, overflowX: 'hidden', transition: theme.transitions.create('width') },
            },
          }}
        >
          <Toolbar />
          <SideMenu user={user} expanded={open} />
        </Drawer>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 1, sm: 2 }, bgcolor: 'background.default' }}>
        <Toolbar />
        <Outlet />
      </Box>
    </Box>
  );
}
