import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import { Box, List, ListItemButton, ListItemIcon, ListItemText, Typography } from '@mui/material';
import { APP_VERSION, type SessionUser, STORAGE_KEYS } from '@zapdesk/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { LazyTooltip } from '../../features/common/lazy-tooltip';
import { ChatsMenuBadge, ConnectionsMenuBadge } from './menu-badges';
import { buildMenu, type MenuLink } from './menu-items';

interface SideMenuProps {
  user: SessionUser;
  /** Expanded (labels shown) or collapsed to icons. */
  expanded: boolean;
  /** Called after a link is followed (closes the temporary drawer on small screens). */
  onNavigate?: () => void;
}

/** A group's opening transition, loaded when a group is first opened (groups start closed). */
const Collapse = lazy(() => import('@mui/material/Collapse'));

const testIdOf = (to: string) => `menu-${to === '/' ? 'dashboard' : to.slice(1)}`;

/** The side menu's links (core section 2 "Side menu") and the version footer. */
export function SideMenu({ user, expanded, onNavigate }: SideMenuProps) {
  const { t } = useTranslation();
  const location = useLocation();
  const cshow = localStorage.getItem(STORAGE_KEYS.cshow) !== null;
  const entries = buildMenu(user, { cshow });
  const [openGroups, setOpenGroups] = useState<Record<string, boolean>>({});
  const openedGroups = new Set(Object.keys(openGroups));

  const renderLink = (item: MenuLink, nested = false) => {
    const Icon = item.icon;
    let icon = <Icon />;
    if (item.badge === 'connections') icon = <ConnectionsMenuBadge>{icon}</ConnectionsMenuBadge>;
    if (item.badge === 'chats') icon = <ChatsMenuBadge>{icon}</ChatsMenuBadge>;
    const label = t(item.labelKey);
    return (
      <LazyTooltip key={item.to} title={expanded ? '' : label} placement="right">
        <ListItemButton
          component={NavLink}
          to={item.to}
          end={item.to === '/'}
          onClick={onNavigate}
          data-testid={testIdOf(item.to)}
          selected={item.to === '/' ? location.pathname === '/' : location.pathname.startsWith(item.to)}
          sx={{ pl: nested && expanded ? 4 : 2, minHeight: 44 }}
        >
          <ListItemIcon sx={{ minWidth: 40 }}>{icon}</ListItemIcon>
          <ListItemText primary={label} sx={{ opacity: expanded ? 1 : 0, whiteSpace: 'nowrap' }} />
        </ListItemButton>
      </LazyTooltip>
    );
  };

  return (
    <Box
      component="nav"
      aria-label={t('menu.label')}
      data-testid="side-menu"
      sx={{ display: 'flex', flexDirection: 'column', flex: 1, minHeight: 0 }}
    >
      {/* Links, not list items: a `div` (an `ul` may hold `li` only), inside the nav landmark. */}
      <List component="div" sx={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        {entries.map((entry) => {
          if (entry.kind === 'link') return renderLink(entry);
          const Icon = entry.icon;
          const open = openGroups[entry.id] ?? false;
          return (
            <Box key={entry.id}>
              <ListItemButton
                onClick={() => setOpenGroups((g) => ({ ...g, [entry.id]: !open }))}
                aria-expanded={open}
                data-testid={`menu-group-${entry.id}`}
                sx={{ minHeight: 44 }}
              >
                <ListItemIcon sx={{ minWidth: 40 }}>
                  <Icon />
                </ListItemIcon>
                <ListItemText
                  primary={t(entry.labelKey)}
                  sx={{ opacity: expanded ? 1 : 0, whiteSpace: 'nowrap' }}
                />
                {expanded && (open ? <ExpandLess /> : <ExpandMore />)}
              </ListItemButton>
              {openedGroups.has(entry.id) && (
                <Suspense fallback={null}>
                  <Collapse in={open} timeout="auto" unmountOnExit>
                    <List component="div" disablePadding>
                      {entry.children.map((child) => renderLink(child, true))}
                    </List>
                  </Collapse>
                </Suspense>
              )}
            </Box>
          );
        })}
      </List>
      {/* MUI's Divider as it draws itself (a thin bottom border in the divider colour). */}
      <Box
        component="hr"
        sx={{ m: 0, flexShrink: 0, border: 0, borderBottom: 'thin solid', borderColor: 'divider' }}
      />
      <Typography
        variant="caption"
        color="text.secondary"
        sx={{ p: 1, textAlign: 'center', whiteSpace: 'nowrap' }}
        data-testid="app-version"
      >
        {expanded ? t('menu.version', { version: APP_VERSION }) : APP_VERSION}
      </Typography>
    </Box>
  );
}
