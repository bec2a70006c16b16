import { Box, Button, CircularProgress, Typography } from '@mui/material';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { InfoDialog } from '../common/info-dialog';
import { useConnection, useSessionCommand } from './use-connections';

/** QR size in pixels (document 2 section 9). */
export const QR_SIZE = 256;

interface QrDialogProps {
  /** The connection whose QR is shown. */
  whatsappId: number;
  onClose: () => void;
}

/** States in which no QR is coming until someone asks for a new one. */
const STOPPED = new Set(['DISCONNECTED', 'TIMEOUT']);

/**
 * The QR dialog (document 2 section 2): shows the connection's current QR code at 256 px. The QR comes
 * from GET /whatsapp/:id and is kept live by `company-{id}-whatsappSession` events (which write the
 * same cache). It closes by itself only once the connection pairs (CONNECTED): a restart of the
 * session (its 'new QR' button, or from elsewhere) clears the QR on its way and the dialog shows the
 * new code when it comes; a stopped session says so and offers the new QR.
 */
export function QrDialog({ whatsappId, onClose }: QrDialogProps) {
  const { t } = useTranslation();
  const connection = useConnection(whatsappId);
  const restart = useSessionCommand();
  const qrcode = connection.data?.qrcode;
  const status = connection.data?.status;
  useEffect(() => {
    if (status === 'CONNECTED') onClose();
  }, [status, onClose]);
  const stopped = !qrcode && !restart.isPending && status !== undefined && STOPPED.has(status);

  return (
    <InfoDialog
      onClose={onClose}
      title={connection.data?.name ?? t('connections.qrTitle')}
      titleId="qr-dialog-title"
      testId="qr-dialog"
      closeTestId="qr-dialog-close"
      actions={
        <Button
          onClick={() => restart.mutate({ id: whatsappId, command: 'restart' })}
          disabled={restart.isPending}
          data-testid="qr-dialog-new-qr"
        >
          {t('connections.buttons.newQr')}
        </Button>
      }
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('connections.qrHelp')}
      </Typography>
      <Box
        sx={{
          display: 'grid',
          placeItems: 'center',
          minWidth: QR_SIZE,
          minHeight: QR_SIZE,
          bgcolor: 'common.white',
          p: 1,
        }}
      >
        {qrcode ? (
          <QRCodeSVG value={qrcode} size={QR_SIZE} data-testid="qr-code" data-value={qrcode} />
        ) : stopped ? (
          <Typography color="text.primary" sx={{ p: 2, textAlign: 'center' }} data-testid="qr-stopped">
            {t('connections.qrStopped')}
          </Typography>
        ) : (
          <CircularProgress aria-label={t('connections.qrWaiting')} />
        )}
      </Box>
    </InfoDialog>
  );
}
