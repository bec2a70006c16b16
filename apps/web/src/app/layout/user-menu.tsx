import AccountCircle from '@mui/icons-material/AccountCircle';
import LogoutIcon from '@mui/icons-material/Logout';
import PersonIcon from '@mui/icons-material/Person';
import { IconButton, ListItemIcon, Menu, MenuItem, Tooltip } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser, useSession } from '../../features/auth/session-context';

/** The profile modal (its form and zod) loads when it is first opened. */
const UserModal = lazy(() =>
  import('../../features/users/user-modal').then((m) => ({ default: m.UserModal })),
);

/** Profile menu of the top bar: 'profile' (the user modal for oneself) and 'logout'. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { logout, setUser } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);

  return (
    <>
      <Tooltip title={t('topbar.account')}>
        <IconButton
          color="inherit"
          aria-label={t('topbar.account')}
          aria-haspopup="menu"
          data-testid="user-menu-button"
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
        transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      >
        <MenuItem
          data-testid="profile"
          onClick={() => {
            setAnchor(null);
            setProfileOpen(true);
          }}
        >
          <ListItemIcon>
            <PersonIcon fontSize="small" />
          </ListItemIcon>
          {t('topbar.profile')}
        </MenuItem>
        <MenuItem
          data-testid="logout"
          onClick={async () => {
            setAnchor(null);
            await logout();
            navigate('/login', { replace: true });
          }}
        >
          <ListItemIcon>
            <LogoutIcon fontSize="small" />
          </ListItemIcon>
          {t('topbar.logout')}
        </MenuItem>
      </Menu>
      {profileOpen && (
        <Suspense fallback={null}>
          <UserModal
            open
            userId={user.id}
            onClose={() => setProfileOpen(false)}
            onSaved={(saved) => setUser({ ...user, ...saved, company: user.company })}
          />
        </Suspense>
      )}
    </>
  );
}
