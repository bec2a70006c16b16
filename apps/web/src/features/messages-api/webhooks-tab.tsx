import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';
import History from '@mui/icons-material/History';
import Key from '@mui/icons-material/Key';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import {
  WEBHOOK_EVENTS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookWithSecret,
  ZWebhookUrl,
} from '@zapdesk/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { formatDateTime } from '../../lib/format';
import { notifyError } from '../../lib/notify';
import { ConfirmationDialog, ConfirmDeleteDialog } from '../common/confirmation-dialog';
import {
  useDeleteWebhook,
  useRetryDelivery,
  useRotateWebhookSecret,
  useSaveWebhook,
  useWebhookDeliveries,
  useWebhooks,
} from './use-webhooks';

const STATUS_COLOR = { pending: 'warning', delivered: 'success', failed: 'error' } as const;

/** The add/edit dialog: URL (http or https), description, events, active. */
function WebhookDialog({
  record,
  onClose,
  onCreated,
}: {
  record: Webhook | null;
  onClose: () => void;
  onCreated: (created: WebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  const save = useSaveWebhook();
  const [url, setUrl] = useState(record?.url ?? '');
  const [description, setDescription] = useState(record?.description ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(record?.events ?? ['message.created']);
  const [active, setActive] = useState(record?.active ?? true);
  const [touched, setTouched] = useState(false);
  const urlError = touched && !ZWebhookUrl.safeParse(url).success;
  const toggle = (event: WebhookEvent) =>
    setEvents((current) =>
      current.includes(event) ? current.filter((e) => e !== event) : [...current, event],
    );
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!ZWebhookUrl.safeParse(url).success || events.length === 0) return;
    save.mutate(
      { id: record?.id, body: { url: url.trim(), description, events, active } },
      {
        onSuccess: (saved) => {
          toast.success(t('webhooks.toasts.saved'));
          if ('secret' in saved) onCreated(saved as WebhookWithSecret);
          onClose();
        },
        onError: notifyError,
      },
    );
  };
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="webhook-dialog-title">
      <form onSubmit={submit} data-testid="webhook-form" noValidate>
        <DialogTitle id="webhook-dialog-title">{record ? t('webhooks.edit') : t('webhooks.add')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('webhooks.fields.url')}
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              onBlur={() => setTouched(true)}
              error={urlError}
              helperText={urlError ? t('webhooks.invalidUrl') : t('webhooks.urlHelp')}
              required
              fullWidth
              inputProps={{ 'data-testid': 'webhook-url', maxLength: 2000 }}
            />
            <TextField
              label={t('webhooks.fields.description')}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              fullWidth
              inputProps={{ 'data-testid': 'webhook-description', maxLength: 200 }}
            />
            <Box>
              <FormLabel component="legend">{t('webhooks.fields.events')}</FormLabel>
              <FormGroup>
                {WEBHOOK_EVENTS.map((event) => (
                  <FormControlLabel
                    key={event}
                    control={
                      <Checkbox
                        checked={events.includes(event)}
                        onChange={() => toggle(event)}
                        inputProps={{ 'data-testid': `webhook-event-${event}` } as object}
                      />
                    }
                    label={t(`webhooks.events.${event}`)}
                  />
                ))}
              </FormGroup>
              {touched && events.length === 0 && (
                <Typography color="error" variant="caption">
                  {t('webhooks.noEvents')}
                </Typography>
              )}
            </Box>
            <FormControlLabel
              control={<Switch checked={active} onChange={(e) => setActive(e.target.checked)} />}
              label={t('webhooks.fields.active')}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending} data-testid="webhook-save">
            {record ? t('common.save') : t('common.add')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** Shows a secret in full, this once. */
function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="webhook-secret-title">
      <DialogTitle id="webhook-secret-title">{t('webhooks.secretTitle')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Alert severity="warning">{t('webhooks.secretOnce')}</Alert>
          <TextField
            value={secret}
            fullWidth
            InputProps={{ readOnly: true, sx: { fontFamily: 'monospace' } }}
            inputProps={{ 'data-testid': 'webhook-secret' }}
          />
          <Typography variant="body2">{t('webhooks.verifyHelp')}</Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button
          onClick={() =>
            void navigator.clipboard?.writeText(secret).then(() => toast.success(t('messagesAPI.copied')))
          }
        >
          {t('messagesAPI.copy')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="webhook-secret-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The delivery log of one webhook: status, tries, response code, last error, next try. */
function DeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(webhook.id);
  const retry = useRetryDelivery(webhook.id);
  const rows: WebhookDelivery[] = useMemo(
    () => deliveries.data?.pages.flatMap((p) => p.records) ?? [],
    [deliveries.data],
  );
  return (
    <Dialog open onClose={onClose} maxWidth="lg" fullWidth aria-labelledby="webhook-deliveries-title">
      <DialogTitle id="webhook-deliveries-title">
        {t('webhooks.deliveries.title', { url: webhook.url })}
      </DialogTitle>
      <DialogContent dividers>
        {rows.length === 0 && !deliveries.isPending ? (
          <Typography data-testid="webhook-deliveries-empty">{t('webhooks.deliveries.empty')}</Typography>
        ) : (
          <Table size="small" data-testid="webhook-deliveries">
            <TableHead>
              <TableRow>
                <TableCell>{t('webhooks.deliveries.date')}</TableCell>
                <TableCell>{t('webhooks.deliveries.event')}</TableCell>
                <TableCell>{t('webhooks.deliveries.status')}</TableCell>
                <TableCell align="center">{t('webhooks.deliveries.tries')}</TableCell>
                <TableCell align="center">{t('webhooks.deliveries.responseCode')}</TableCell>
                <TableCell>{t('webhooks.deliveries.lastError')}</TableCell>
                <TableCell>{t('webhooks.deliveries.nextAttempt')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((d) => (
                <TableRow key={d.id} data-testid={`webhook-delivery-${d.id}`}>
                  <TableCell>{formatDateTime(d.createdAt)}</TableCell>
                  <TableCell>{t(`webhooks.events.${d.event}`)}</TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={STATUS_COLOR[d.status]}
                      label={t(`webhooks.status.${d.status}`)}
                    />
                  </TableCell>
                  <TableCell align="center">{d.tries}</TableCell>
                  <TableCell align="center">{d.responseCode ?? '—'}</TableCell>
                  <TableCell sx={{ maxWidth: 320, wordBreak: 'break-word' }}>{d.lastError ?? ''}</TableCell>
                  <TableCell>
                    {d.status === 'pending' && formatDateTime(d.nextAttemptAt)}
                    {d.status === 'failed' && (
                      <Button
                        size="small"
                        disabled={retry.isPending}
                        onClick={() => retry.mutate(d.id, { onError: notifyError })}
                        data-testid={`webhook-delivery-retry-${d.id}`}
                      >
                        {t('webhooks.deliveries.retry')}
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void deliveries.refetch()}>{t('webhooks.deliveries.refresh')}</Button>
        {deliveries.hasNextPage && (
          <Button onClick={() => void deliveries.fetchNextPage()}>{t('webhooks.deliveries.more')}</Button>
        )}
        <Button variant="contained" onClick={onClose}>
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/**
 * Outgoing webhooks of the company (admins): URL, chosen events, active, masked secret; add/edit,
 * new secret (shown once), delivery log, delete.
 */
export function WebhooksTab() {
  const { t } = useTranslation();
  const list = useWebhooks();
  const remove = useDeleteWebhook();
  const rotate = useRotateWebhookSecret();
  const [editing, setEditing] = useState<{ record: Webhook | null } | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [toDelete, setToDelete] = useState<Webhook | null>(null);
  const [toRotate, setToRotate] = useState<Webhook | null>(null);
  const hooks = list.data ?? [];
  return (
    <Stack spacing={2} data-testid="webhooks-tab">
      <Stack direction="row" justifyContent="space-between" alignItems="center">
        <Typography variant="body2" sx={{ maxWidth: 720 }}>
          {t('webhooks.intro')}
        </Typography>
        <Button
          variant="contained"
          onClick={() => setEditing({ record: null })}
          data-testid="add-webhook-button"
        >
          {t('webhooks.add')}
        </Button>
      </Stack>
      <Table size="small" data-testid="webhooks-table">
        <TableHead>
          <TableRow>
            <TableCell>{t('webhooks.fields.url')}</TableCell>
            <TableCell>{t('webhooks.fields.events')}</TableCell>
            <TableCell>{t('webhooks.fields.secret')}</TableCell>
            <TableCell align="center">{t('webhooks.fields.active')}</TableCell>
            <TableCell align="center" width={180}>
              {t('webhooks.actions')}
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {hooks.length === 0 && !list.isPending && (
            <TableRow>
              <TableCell colSpan={5}>{t('webhooks.empty')}</TableCell>
            </TableRow>
          )}
          {hooks.map((hook) => (
            <TableRow key={hook.id} hover data-testid={`webhook-row-${hook.id}`}>
              <TableCell sx={{ wordBreak: 'break-all' }}>
                {hook.url}
                {hook.description && (
                  <Typography variant="caption" display="block" color="text.secondary">
                    {hook.description}
                  </Typography>
                )}
              </TableCell>
              <TableCell>
                <Stack direction="row" gap={0.5} flexWrap="wrap">
                  {hook.events.map((event) => (
                    <Chip key={event} size="small" label={t(`webhooks.events.${event}`)} />
                  ))}
                </Stack>
              </TableCell>
              <TableCell sx={{ fontFamily: 'monospace' }}>{hook.secretHint}</TableCell>
              <TableCell align="center">{hook.active ? t('common.yes') : t('common.no')}</TableCell>
              <TableCell align="center">
                <Tooltip title={t('webhooks.deliveries.open')}>
                  <IconButton
                    size="small"
                    aria-label={t('webhooks.deliveries.open')}
                    onClick={() => setLog(hook)}
                    data-testid={`webhook-log-${hook.id}`}
                  >
                    <History fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('webhooks.rotate')}>
                  <IconButton
                    size="small"
                    aria-label={t('webhooks.rotate')}
                    onClick={() => setToRotate(hook)}
                  >
                    <Key fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('webhooks.edit')}>
                  <IconButton
                    size="small"
                    aria-label={t('webhooks.edit')}
                    onClick={() => setEditing({ record: hook })}
                    data-testid={`webhook-edit-${hook.id}`}
                  >
                    <EditOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={t('webhooks.delete')}>
                  <IconButton
                    size="small"
                    aria-label={t('webhooks.delete')}
                    onClick={() => setToDelete(hook)}
                    data-testid={`webhook-delete-${hook.id}`}
                  >
                    <DeleteOutline fontSize="small" />
                  </IconButton>
                </Tooltip>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {editing && (
        <WebhookDialog
          record={editing.record}
          onClose={() => setEditing(null)}
          onCreated={(created) => setSecret(created.secret)}
        />
      )}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret(null)} />}
      {log && <DeliveriesDialog webhook={log} onClose={() => setLog(null)} />}
      <ConfirmationDialog
        open={toRotate !== null}
        title={t('webhooks.rotateConfirm.title')}
        message={t('webhooks.rotateConfirm.message')}
        onClose={() => setToRotate(null)}
        onConfirm={() => {
          if (!toRotate) return;
          rotate.mutate(toRotate.id, { onSuccess: (saved) => setSecret(saved.secret), onError: notifyError });
          setToRotate(null);
        }}
      />
      <ConfirmDeleteDialog
        target={toDelete}
        title={t('webhooks.confirmDelete.title')}
        message={t('webhooks.confirmDelete.message')}
        deletedMessage={t('webhooks.toasts.deleted')}
        remove={remove}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
}
