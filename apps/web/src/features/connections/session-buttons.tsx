import { Button, Stack } from '@mui/material';
import type { ConnectionState } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';

/** The session buttons a connection can show. */
export type SessionAction = 'qrcode' | 'try-again' | 'new-qr' | 'disconnect' | 'connecting';

/**
 * Buttons per status, exactly as document 2 section 2 lists them: qrcode -> 'QR code';
 * DISCONNECTED -> 'try again' and 'new QR'; CONNECTED, PAIRING, TIMEOUT -> 'disconnect';
 * OPENING -> a disabled 'connecting'.
 */
export const SESSION_BUTTONS: Record<ConnectionState, SessionAction[]> = {
  qrcode: ['qrcode'],
  DISCONNECTED: ['try-again', 'new-qr'],
  CONNECTED: ['disconnect'],
  PAIRING: ['disconnect'],
  TIMEOUT: ['disconnect'],
  OPENING: ['connecting'],
};

const LABEL_KEYS: Record<SessionAction, string> = {
  qrcode: 'connections.buttons.qrcode',
  'try-again': 'connections.buttons.tryAgain',
  'new-qr': 'connections.buttons.newQr',
  disconnect: 'connections.buttons.disconnect',
  connecting: 'connections.buttons.connecting',
};

interface SessionButtonsProps {
  id: number;
  status: ConnectionState;
  /** Called with the button's action (never with 'connecting', which is disabled). */
  onAction: (action: Exclude<SessionAction, 'connecting'>) => void;
  /** Disables the buttons while a command runs. */
  busy?: boolean;
}

/** The session cell of a connection row; data-testid `session-button-<action>-<id>`. */
export function SessionButtons({ id, status, onAction, busy = false }: SessionButtonsProps) {
  const { t } = useTranslation();
  const actions = SESSION_BUTTONS[status] ?? [];
  return (
    <Stack direction="row" spacing={1} justifyContent="center" flexWrap="wrap" useFlexGap>
      {actions.map((action) => {
        const label = t(LABEL_KEYS[action]);
        const disabled = action === 'connecting' || busy;
        return (
          <Button
            key={action}
            size="small"
            variant={action === 'new-qr' || action === 'disconnect' ? 'outlined' : 'contained'}
            color={action === 'disconnect' ? 'error' : 'primary'}
            disabled={disabled}
            data-testid={`session-button-${action}-${id}`}
            onClick={() => {
              if (action !== 'connecting') onAction(action);
            }}
          >
            {label}
          </Button>
        );
      })}
    </Stack>
  );
}
