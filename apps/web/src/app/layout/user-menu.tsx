import AccountCircle from '@mui/icons-material/AccountCircle';
import { IconButton } from '@mui/material';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCurrentUser, useSession } from '../../features/auth/session-context';
import { LazyTooltip } from '../../features/common/lazy-tooltip';

/** The menu itself (MUI Menu, Popover, Modal) loads when it is first opened. */
const UserMenuList = lazy(() => import('./user-menu-list').then((m) => ({ default: m.UserMenuList })));

/** The profile modal (its form and zod) loads when it is first opened. */
const UserModal = lazy(() =>
  import('../../features/users/user-modal').then((m) => ({ default: m.UserModal })),
);

/** 'Notificações push' (Web Push in this browser, the events that push) loads when first chosen. */
const PushSettingsDialog = lazy(() =>
  import('../../features/push/push-settings-dialog').then((m) => ({ default: m.PushSettingsDialog })),
);

/** Profile menu of the top bar: 'profile' (the user modal for oneself), push notifications and 'logout'. */
export function UserMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const { logout, setUser } = useSession();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [menuUsed, setMenuUsed] = useState(false);
  const [profileOpen, setProfileOpen] = useState(false);
  const [pushOpen, setPushOpen] = useState(false);

  return (
    <>
      <LazyTooltip title={t('topbar.account')}>
        <IconButton
          color="inherit"
          aria-label={t('topbar.account')}
          aria-haspopup="menu"
          data-testid="user-menu-button"
          onClick={(e) => {
            setAnchor(e.currentTarget);
            setMenuUsed(true);
          }}
        >
          <AccountCircle />
        </IconButton>
      </LazyTooltip>
      {menuUsed && (
        <Suspense fallback={null}>
          <UserMenuList
            anchor={anchor}
            onClose={() => setAnchor(null)}
            onProfile={() => {
              setAnchor(null);
              setProfileOpen(true);
            }}
            onPush={() => {
              setAnchor(null);
              setPushOpen(true);
            }}
            onLogout={async () => {
              setAnchor(null);
              await logout();
              navigate('/login', { replace: true });
            }}
          />
        </Suspense>
      )}
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
      {pushOpen && (
        <Suspense fallback={null}>
          <PushSettingsDialog onClose={() => setPushOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
