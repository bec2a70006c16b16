/**
 * The Pix payment screen of the checkout (document 3 sections 2 and 4): the QR code (qrcode.react,
 * 256 px) of the 'copia e cola' BR Code and the original value. A `company-{id}-payment` CONCLUIDA
 * shows that the licence is renewed until the new due date, then goes to / after 4 s. Loaded with
 * React.lazy so the QR library reaches only the pages that use it.
 */
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, Link, Stack, TextField, Typography } from '@mui/material';
import { PAID_REDIRECT_MS, PIX_QR_SIZE, type SubscribeResponse } from '@zapdesk/shared';
import { QRCodeSVG } from 'qrcode.react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDate } from '../../lib/format';
import { InfoDialog } from '../common/info-dialog';
import { formatBRL } from './money';
import { onPaymentEvent } from './payment-events';

export default function PixDialog({
  data,
  onClose,
}: {
  data: SubscribeResponse | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [renewedUntil, setRenewedUntil] = useState<string | null>(null);
  const invoiceId = data?.invoice.id;

  useEffect(() => {
    if (invoiceId === undefined) return;
    setRenewedUntil(null);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = onPaymentEvent((event) => {
      if (event.invoiceId !== invoiceId) return;
      setRenewedUntil(event.company.dueDate ?? '');
      timer = setTimeout(() => navigate('/'), PAID_REDIRECT_MS);
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [invoiceId, navigate]);

  const code = data?.qrcode.qrcode ?? null;
  return (
    <InfoDialog
      open={data !== null}
      onClose={onClose}
      title={t('billing.pixTitle')}
      maxWidth="xs"
      closeLabel={t('billing.close')}
    >
      {data && (
        <Stack spacing={2} alignItems="center" data-testid="pix-checkout">
          <Typography>{data.invoice.detail}</Typography>
          <Typography variant="h6" data-testid="pix-value">
            {formatBRL(Number(data.valor.original))}
          </Typography>
          {renewedUntil !== null ? (
            <Alert severity="success" data-testid="pix-paid">
              {t('billing.paid', { date: formatDate(renewedUntil) })}
            </Alert>
          ) : (
            <>
              {code && (
                <Box sx={{ bgcolor: '#fff', p: 1 }} data-testid="pix-qr">
                  <QRCodeSVG value={code} size={PIX_QR_SIZE} />
                </Box>
              )}
              {code && (
                <TextField
                  label={t('billing.copyPaste')}
                  value={code}
                  fullWidth
                  multiline
                  size="small"
                  slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'pix-code' } }}
                />
              )}
              {code && (
                <Button
                  startIcon={<ContentCopyIcon />}
                  onClick={() => void navigator.clipboard?.writeText(code)}
                >
                  {t('billing.copy')}
                </Button>
              )}
              {data.paymentLink && (
                <Link href={data.paymentLink} target="_blank" rel="noopener noreferrer">
                  {t('billing.paymentLink')}
                </Link>
              )}
              <Typography variant="body2" color="text.secondary">
                {t('billing.waiting')}
              </Typography>
            </>
          )}
        </Stack>
      )}
    </InfoDialog>
  );
}
