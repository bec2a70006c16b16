import {
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useConnection } from './use-connections';

/** QR size in pixels (document 2 section 9). */
export const QR_SIZE = 256;

interface QrDialogProps {
  /** The connection whose QR is shown. */
  whatsappId: number;
  onClose: () => void;
}

/**
 * The QR dialog (document 2 section 2): shows the connection's current QR code at 256 px. The QR comes
 * from GET /whatsapp/:id and is kept live by `company-{id}-whatsappSession` events (which write the
 * same cache); once the connection pairs (or the QR it showed becomes empty) the dialog closes by itself.
 */
export function QrDialog({ whatsappId, onClose }: QrDialogProps) {
  const { t } = useTranslation();
  const connection = useConnection(whatsappId);
  const qrcode = connection.data?.qrcode;

  const shown = useRef(false);
  const status = connection.data?.status;
  useEffect(() => {
    if (qrcode) shown.current = true;
    // Closes once paired, or once the QR it showed is gone; a cached row from before the QR arrived
    // (no QR yet, not connected) keeps the dialog open and waiting.
    else if (status === 'CONNECTED' || shown.current) onClose();
  }, [qrcode, status, onClose]);

  return (
    <Dialog open onClose={onClose} aria-labelledby="qr-dialog-title" data-testid="qr-dialog">
      <DialogTitle id="qr-dialog-title">{connection.data?.name ?? t('connections.qrTitle')}</DialogTitle>
      <DialogContent>
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
          ) : (
            <CircularProgress aria-label={t('connections.qrWaiting')} />
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="qr-dialog-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
