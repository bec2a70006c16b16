import { Divider, Drawer } from '@mui/material';
import type { SessionUser } from '@zapdesk/shared';
import type { ReactNode } from 'react';
import { SideMenu } from './side-menu';

interface MobileDrawerProps {
  user: SessionUser;
  open: boolean;
  onClose: () => void;
  /** The drawer's header (the close button). */
  header: ReactNode;
  width: number;
}

/**
 * The side menu as a temporary (overlay) drawer, under 600 px (MUI Drawer with its Modal and Slide):
 * a chunk loaded only on small screens.
 */
export function MobileDrawer({ user, open, onClose, header, width }: MobileDrawerProps) {
  return (
    <Drawer
      variant="temporary"
      open={open}
      onClose={onClose}
      ModalProps={{ keepMounted: true }}
      slotProps={{ paper: { sx: { width } } }}
    >
      {header}
      <Divider />
      <SideMenu user={user} expanded onNavigate={onClose} />
    </Drawer>
  );
}
