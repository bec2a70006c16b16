import KeyboardIcon from '@mui/icons-material/Keyboard';
import LogoutIcon from '@mui/icons-material/Logout';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import PersonIcon from '@mui/icons-material/Person';
import { ListItemIcon, Menu, MenuItem } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { openKeyboardHelp } from './keyboard-help';

interface UserMenuListProps {
  anchor: HTMLElement | null;
  onClose: () => void;
  onProfile: () => void;
  onPush: () => void;
  onLogout: () => void;
}

/** The profile menu's items ('profile', push notifications, the keyboard shortcuts, 'logout'): a chunk loaded when the menu first opens. */
export function UserMenuList({ anchor, onClose, onProfile, onPush, onLogout }: UserMenuListProps) {
  const { t } = useTranslation();
  return (
    <Menu
      anchorEl={anchor}
      open={anchor !== null}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
    >
      <MenuItem data-testid="profile" onClick={onProfile}>
        <ListItemIcon>
          <PersonIcon fontSize="small" />
        </ListItemIcon>
        {t('topbar.profile')}
      </MenuItem>
      <MenuItem data-testid="push-settings-item" onClick={onPush}>
        <ListItemIcon>
          <NotificationsActiveIcon fontSize="small" />
        </ListItemIcon>
        {t('push.menu')}
      </MenuItem>
      <MenuItem
        data-testid="keyboard-help-item"
        onClick={() => {
          onClose();
          openKeyboardHelp();
        }}
      >
        <ListItemIcon>
          <KeyboardIcon fontSize="small" />
        </ListItemIcon>
        {t('shortcuts.menu')}
      </MenuItem>
      <MenuItem data-testid="logout" onClick={onLogout}>
        <ListItemIcon>
          <LogoutIcon fontSize="small" />
        </ListItemIcon>
        {t('topbar.logout')}
      </MenuItem>
    </Menu>
  );
}
