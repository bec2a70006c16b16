import {
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import {
  type Invoice,
  invoiceDisplayStatus,
  isFreeTrialInvoice,
  PENDING_INVOICE_LIMIT,
  type SubscribeResponse,
} from '@zapdesk/shared';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { formatShortDateTime } from '../../lib/format';
import { loadMoreOnScroll } from '../../lib/load-more-on-scroll';
import { notifyError } from '../../lib/notify';
import { useCurrentUser } from '../auth/session-context';
import { cancelBillingInvoice, cancellationErrorKey, crmPaymentLink } from './crm-flow';
import { formatBRL } from './money';
import { PixSettingsForm } from './pix-settings-form';
import { billingKeys, useAdminInvoices, useInvoices, useMarkPaid } from './use-billing';

const PixDialog = lazy(() => import('./pix-dialog'));
const CheckoutDialog = lazy(() => import('./checkout-dialog'));

const STATUS_COLOR = { paid: 'success', open: 'info', expired: 'error', cancelled: 'default' } as const;

function StatusChip({ invoice }: { invoice: Invoice }) {
  const { t } = useTranslation();
  const status = invoiceDisplayStatus(invoice);
  return <Chip size="small" color={STATUS_COLOR[status]} label={t(`billing.status.${status}`)} />;
}

/** Super user: every company's open invoices, with 'Marcar como paga' (manual provider). */
function AdminInvoices() {
  const { t } = useTranslation();
  const list = useAdminInvoices(true);
  const pay = useMarkPaid();
  return (
    <Stack spacing={1} data-testid="admin-invoices">
      <Typography variant="h6">{t('billing.adminTitle')}</Typography>
      <PixSettingsForm />
      <TableContainer component={Paper} variant="outlined">
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('billing.company')}</TableCell>
              <TableCell>{t('billing.detail')}</TableCell>
              <TableCell>{t('billing.value')}</TableCell>
              <TableCell>{t('billing.dueDate')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {(list.data ?? []).map((invoice) => (
              <TableRow key={invoice.id} data-testid={`admin-invoice-${invoice.id}`}>
                <TableCell>{invoice.companyName}</TableCell>
                <TableCell>{invoice.detail}</TableCell>
                <TableCell>{formatBRL(invoice.value)}</TableCell>
                <TableCell>{formatShortDateTime(invoice.dueDate)}</TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    data-testid={`mark-paid-${invoice.id}`}
                    disabled={pay.isPending}
                    onClick={() =>
                      pay.mutate(invoice.id, {
                        onSuccess: () => toast.success(t('billing.markedPaid')),
                        onError: notifyError,
                      })
                    }
                  >
                    {t('billing.markPaid')}
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}

/**
 * /financeiro (document 3 sections 2 and 4): the company's invoices (detail, value, due date,
 * status with 'expired' derived; free trial hidden) in an infinite-scroll table, 'Pagar' opening
 * the three-step checkout dialog and then the Pix screen, the cancel action when two or more are open and one is the free trial; the
 * super user also sees every company's open invoices and the platform Pix key.
 */
export function InvoicesPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const invoices = useInvoices();
  const [checkout, setCheckout] = useState<SubscribeResponse | null>(null);
  const [paying, setPaying] = useState<Invoice | null>(null);
  const all = invoices.data?.pages.flat() ?? [];
  const open = all.filter((i) => i.status === 'open');
  const canCancel = open.length >= PENDING_INVOICE_LIMIT && open.some(isFreeTrialInvoice);
  const rows = all.filter((i) => !isFreeTrialInvoice(i));

  const [toCancel, setToCancel] = useState<Invoice | null>(null);
  const queryClient = useQueryClient();

  /** 'Pagar': a CRM invoice opens its payment page (crm-verify-invoice); others the checkout. */
  const pay = async (invoice: Invoice) => {
    if (invoice.provider !== 'crm') {
      setPaying(invoice);
      return;
    }
    try {
      const link = await crmPaymentLink(invoice);
      if (link) window.open(link, '_blank', 'noopener');
      else toast.error(t('billing.cancelNoInvoice'));
    } catch (err) {
      notifyError(err);
    }
  };

  /** 'Cancelar' after its confirmation: 'Processando pedido de cancelamento...', then the result. */
  const confirmCancel = async () => {
    const invoice = toCancel;
    setToCancel(null);
    if (!invoice) return;
    toast.info(t('billing.cancelProcessing'));
    try {
      await cancelBillingInvoice(invoice, user.companyId);
      toast.success(t('billing.invoiceCancelled'));
    } catch (err) {
      toast.error(t(cancellationErrorKey(err)));
    } finally {
      void queryClient.invalidateQueries({ queryKey: billingKeys.all });
    }
  };

  return (
    <Stack spacing={3} data-testid="invoices-page">
      <Stack spacing={1}>
        <Typography variant="h5" component="h1">
          {t('billing.invoicesTitle')}
        </Typography>
        <TableContainer
          component={Paper}
          variant="outlined"
          sx={{ maxHeight: 480 }}
          onScroll={loadMoreOnScroll(invoices)}
        >
          <Table size="small" stickyHeader>
            <TableHead>
              <TableRow>
                <TableCell>{t('billing.detail')}</TableCell>
                <TableCell>{t('billing.value')}</TableCell>
                <TableCell>{t('billing.dueDate')}</TableCell>
                <TableCell>{t('billing.statusLabel')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((invoice) => (
                <TableRow key={invoice.id} data-testid={`invoice-${invoice.id}`}>
                  <TableCell>{invoice.detail}</TableCell>
                  <TableCell>{formatBRL(invoice.value)}</TableCell>
                  <TableCell>{formatShortDateTime(invoice.dueDate)}</TableCell>
                  <TableCell>
                    <StatusChip invoice={invoice} />
                  </TableCell>
                  <TableCell align="right">
                    {invoice.status === 'open' && (
                      <Button
                        size="small"
                        onClick={() => void pay(invoice)}
                        data-testid={`pay-${invoice.id}`}
                      >
                        {t('billing.pay')}
                      </Button>
                    )}
                    {invoice.status === 'open' && canCancel && (
                      <Button
                        size="small"
                        color="error"
                        onClick={() => setToCancel(invoice)}
                        data-testid={`cancel-${invoice.id}`}
                      >
                        {t('billing.cancelInvoice')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
              {invoices.isSuccess && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={5}>{t('billing.noInvoices')}</TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      </Stack>
      {user.super && <AdminInvoices />}
      <Dialog open={toCancel !== null} onClose={() => setToCancel(null)}>
        <DialogTitle>{t('billing.cancelInvoice')}</DialogTitle>
        <DialogContent>{t('billing.cancelInvoiceConfirm')}</DialogContent>
        <DialogActions>
          <Button onClick={() => setToCancel(null)}>{t('billing.back')}</Button>
          <Button
            color="error"
            variant="contained"
            onClick={() => void confirmCancel()}
            data-testid="cancel-invoice-confirm"
          >
            {t('billing.cancelInvoiceYes')}
          </Button>
        </DialogActions>
      </Dialog>
      <Suspense fallback={null}>
        {paying && (
          <CheckoutDialog
            invoice={paying}
            onClose={() => setPaying(null)}
            onSubmitted={(answer) => {
              setPaying(null);
              setCheckout(answer);
            }}
          />
        )}
        {checkout && <PixDialog data={checkout} onClose={() => setCheckout(null)} />}
      </Suspense>
    </Stack>
  );
}
