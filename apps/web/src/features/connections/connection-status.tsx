import CropFreeIcon from '@mui/icons-material/CropFree';
import SignalCellular4BarIcon from '@mui/icons-material/SignalCellular4Bar';
import SignalCellularConnectedNoInternet0BarIcon from '@mui/icons-material/SignalCellularConnectedNoInternet0Bar';
import SignalCellularConnectedNoInternet2BarIcon from '@mui/icons-material/SignalCellularConnectedNoInternet2Bar';
import SyncIcon from '@mui/icons-material/Sync';
import { Stack, Tooltip, Typography } from '@mui/material';
import type { ConnectionState } from '@zapdesk/shared';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

const ICONS: Record<ConnectionState, ComponentType<{ fontSize?: 'small'; color?: 'success' | 'error' }>> = {
  CONNECTED: SignalCellular4BarIcon,
  DISCONNECTED: SignalCellularConnectedNoInternet0BarIcon,
  OPENING: SyncIcon,
  qrcode: CropFreeIcon,
  PAIRING: SignalCellularConnectedNoInternet2BarIcon,
  TIMEOUT: SignalCellularConnectedNoInternet2BarIcon,
};

/**
 * The status cell of a connection (document 2 section 2, core section 3): an icon per state, green
 * when CONNECTED and red otherwise, with the state's name and a tooltip explaining it.
 */
export function ConnectionStatus({ id, status }: { id: number; status: ConnectionState }) {
  const { t } = useTranslation();
  const Icon = ICONS[status] ?? SignalCellularConnectedNoInternet0BarIcon;
  const connected = status === 'CONNECTED';
  return (
    <Tooltip title={t(`connections.statusHelp.${status}`)}>
      <Stack
        direction="row"
        spacing={1}
        alignItems="center"
        data-testid={`connection-status-${id}`}
        data-status={status}
        sx={{ color: connected ? 'success.main' : 'error.main', display: 'inline-flex' }}
      >
        <Icon fontSize="small" color={connected ? 'success' : 'error'} />
        <Typography variant="body2" component="span">
          {t(`connections.status.${status}`)}
        </Typography>
      </Stack>
    </Tooltip>
  );
}
