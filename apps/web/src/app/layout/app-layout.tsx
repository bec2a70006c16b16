import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import { Box, IconButton, Paper, Toolbar, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router';
import { useCurrentUser } from '../../features/auth/session-context';
import { useFirstPageSettled } from '../../lib/first-page';
import { KeyboardHelp } from './keyboard-help';
import { SideMenu } from './side-menu';
import { TopBar } from './top-bar';

/**
 * The realtime connection (socket.io client, the caches' event handlers): fetched once the first page
 * is usable (lib/first-page.ts); its first connection refreshes what was fetched before it.
 */
const Realtime = lazy(() => import('../use-realtime').then((m) => ({ default: m.Realtime })));

/** The overlay drawer (MUI Drawer, Modal, Slide), loaded on small screens only. */
const MobileDrawer = lazy(() => import('./mobile-drawer').then((m) => ({ default: m.MobileDrawer })));

export const DRAWER_WIDTH = 240;
const MINI_WIDTH = 60;
/** The menu opens by itself above this window width (core section 2). */
export const AUTO_OPEN_WIDTH = 1200;

/**
 * Shell of the private pages: top bar, side menu and the page. The menu is a temporary (overlay)
 * drawer under 600 px (a lazy chunk); wider, it is docked and collapses to icons, drawn as MUI's
 * permanent drawer draws it (a fixed paper with a right border) without the Drawer module, which
 * would bring its Modal and transitions to every wide first render.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const theme = useTheme();
  const user = useCurrentUser();
  const small = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useState(() => window.innerWidth > AUTO_OPEN_WIDTH);
  const live = useFirstPageSettled();
  // The installable app's service worker: registered after sign-in, from its own small chunk.
  useEffect(() => {
    void import('../../lib/service-worker').then((m) => m.registerServiceWorker());
  }, []);
  // A window narrowed to a phone's width starts with the overlay menu closed, never over the page.
  useEffect(() => {
    if (small) setOpen(false);
  }, [small]);

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
      {live && (
        <Suspense fallback={null}>
          <Realtime user={user} />
        </Suspense>
      )}
      <KeyboardHelp />
      <TopBar
        onToggleMenu={() => setOpen((o) => !o)}
        zIndex={theme.zIndex.drawer + (small ? 0 : 1)}
        compact={small}
      />
      {small ? (
        <Suspense fallback={null}>
          <MobileDrawer
            user={user}
            open={open}
            onClose={() => setOpen(false)}
            header={header}
            width={DRAWER_WIDTH}
          />
        </Suspense>
      ) : (
        <Box sx={{ width, flex: '0 0 auto', transition: theme.transitions.create('width') }}>
          <Paper
            square
            elevation={0}
            sx={{
              width,
              overflowX: 'hidden',
              overflowY: 'auto',
              transition: theme.transitions.create('width'),
              display: 'flex',
              flexDirection: 'column',
              height: '100%',
              flex: '1 0 auto',
              zIndex: 'drawer',
              position: 'fixed',
              top: 0,
              left: 0,
              outline: 0,
              borderRight: 1,
              borderColor: 'divider',
            }}
          >
            <Toolbar />
            <SideMenu user={user} expanded={open} />
          </Paper>
        </Box>
      )}
      <Box component="main" sx={{ flex: 1, minWidth: 0, p: { xs: 1, sm: 2 }, bgcolor: 'background.default' }}>
        <Toolbar />
        <Outlet />
      </Box>
    </Box>
  );
}
