import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Paper,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from '@mui/material';
import { can, type Whatsapp } from '@zapdesk/shared';
import { lazy, type ReactNode, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { formatDateTime } from '../../lib/format';
import { useCurrentUser } from '../auth/session-context';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { DataTable } from '../common/data-table';
import { ListPageHeader } from '../common/list-page-header';
import { RowActionsCell } from '../common/row-actions-cell';
import { ConnectionStatus } from './connection-status';
import { QrDialog } from './qr-dialog';
import { SessionButtons } from './session-buttons';
import { useConnections, useDeleteConnection, useSessionCommand } from './use-connections';

/** The form, loaded when it is first opened. */
const ConnectionModal = lazy(() =>
  import('./connection-modal').then((m) => ({ default: m.ConnectionModal })),
);

type Confirm = { kind: 'disconnect' | 'delete'; connection: Whatsapp };

/**
 * /connections (document 2 sections 2 to 4): the company's connections with status, session buttons
 * per status, last update (dd/MM/yyyy HH:mm), default mark and edit/delete actions; add/edit dialog,
 * QR dialog and confirmations. The add button, the session buttons and edit/delete are gated by
 * connections-page:addConnection, :actionButtons and :editOrDeleteConnection. The list stays live
 * through the `whatsapp` and `whatsappSession` socket events (see connections-cache.ts).
 */
export function ConnectionsPage() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const canAdd = can(me.profile, 'connections-page:addConnection');
  const canSession = can(me.profile, 'connections-page:actionButtons');
  const canEdit = can(me.profile, 'connections-page:editOrDeleteConnection');
  const list = useConnections();
  const session = useSessionCommand();
  const remove = useDeleteConnection();
  const [modal, setModal] = useState<{ whatsappId: number | null } | null>(null);
  const [qrFor, setQrFor] = useState<number | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const closeQr = useCallback(() => setQrFor(null), []);

  const connections = list.data ?? [];

  const onSessionAction = (
    connection: Whatsapp,
    action: 'qrcode' | 'try-again' | 'new-qr' | 'disconnect',
  ) => {
    if (action === 'qrcode') setQrFor(connection.id);
    else if (action === 'try-again') session.mutate({ id: connection.id, command: 'start' });
    else if (action === 'new-qr') session.mutate({ id: connection.id, command: 'restart' });
    else setConfirm({ kind: 'disconnect', connection });
  };

  const onConfirm = () => {
    if (!confirm) return;
    const { connection } = confirm;
    if (confirm.kind === 'disconnect') session.mutate({ id: connection.id, command: 'disconnect' });
    else remove.mutate(connection.id, { onSuccess: () => toast.success(t('connections.toasts.deleted')) });
  };

  const busyId = session.isPending ? session.variables?.id : undefined;

  let body: ReactNode;
  if (list.isPending) {
    body = (
      <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }} data-testid="connections-loading">
        <CircularProgress aria-label={t('connections.loading')} />
      </Box>
    );
  } else if (list.isError) {
    body = (
      <Alert
        severity="error"
        data-testid="connections-error"
        action={
          <Button color="inherit" size="small" onClick={() => void list.refetch()}>
            {t('connections.retry')}
          </Button>
        }
      >
        {t('connections.loadError')}
      </Alert>
    );
  } else if (connections.length === 0) {
    body = (
      <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid="connections-empty">
        {t('connections.empty')}
      </Typography>
    );
  } else {
    body = (
      <DataTable
        testId="connections-table"
        paper={false}
        columns={[
          { label: t('connections.table.name') },
          { label: t('connections.table.status'), align: 'center' },
          canSession && { label: t('connections.table.session'), align: 'center' },
          { label: t('connections.table.lastUpdate'), align: 'center' },
          { label: t('connections.table.default'), align: 'center' },
          canEdit && { label: t('connections.table.actions'), align: 'center' },
        ]}
      >
        {connections.map((connection) => (
          <TableRow key={connection.id} hover data-testid={`connection-row-${connection.id}`}>
            <TableCell>
              {connection.name}
              {connection.provider === 'simulator' && (
                <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                  ({t('connectionModal.providers.simulator')})
                </Typography>
              )}
              {connection.provider === 'cloud' && (
                <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
                  ({t('cloud.providerShort')})
                </Typography>
              )}
            </TableCell>
            <TableCell align="center">
              <ConnectionStatus id={connection.id} status={connection.status} />
              {connection.statusReason && connection.status !== 'CONNECTED' && (
                <Typography
                  variant="caption"
                  color="error"
                  display="block"
                  data-testid={`connection-reason-${connection.id}`}
                >
                  {connection.statusReason}
                </Typography>
              )}
            </TableCell>
            {canSession && (
              <TableCell align="center">
                <SessionButtons
                  id={connection.id}
                  status={connection.status}
                  busy={busyId === connection.id}
                  onAction={(action) => onSessionAction(connection, action)}
                />
              </TableCell>
            )}
            <TableCell align="center" data-testid={`connection-updated-${connection.id}`}>
              {formatDateTime(connection.updatedAt)}
            </TableCell>
            <TableCell align="center">
              {connection.isDefault && (
                <CheckCircleIcon
                  color="success"
                  fontSize="small"
                  titleAccess={t('connections.table.default')}
                  data-testid={`connection-default-${connection.id}`}
                />
              )}
            </TableCell>
            {canEdit && (
              <RowActionsCell
                testIdPrefix="connection"
                id={connection.id}
                editLabel={t('connections.edit', { name: connection.name })}
                onEdit={() => setModal({ whatsappId: connection.id })}
                deleteLabel={t('connections.delete', { name: connection.name })}
                onDelete={() => setConfirm({ kind: 'delete', connection })}
              />
            )}
          </TableRow>
        ))}
      </DataTable>
    );
  }

  return (
    <Stack spacing={2}>
      <ListPageHeader
        title={t('connections.title')}
        add={
          canAdd
            ? {
                label: t('connections.add'),
                testId: 'add-connection-button',
                onClick: () => setModal({ whatsappId: null }),
              }
            : undefined
        }
      />
      <Paper variant="outlined">{body}</Paper>
      {modal && (
        <Suspense fallback={null}>
          <ConnectionModal whatsappId={modal.whatsappId} onClose={() => setModal(null)} />
        </Suspense>
      )}
      {qrFor !== null && <QrDialog whatsappId={qrFor} onClose={closeQr} />}
      <ConfirmationDialog
        open={confirm !== null}
        title={
          confirm?.kind === 'disconnect'
            ? t('connections.confirmDisconnect.title', { name: confirm.connection.name })
            : t('connections.confirmDelete.title', { name: confirm?.connection.name ?? '' })
        }
        message={
          confirm?.kind === 'disconnect'
            ? t('connections.confirmDisconnect.message')
            : t('connections.confirmDelete.message')
        }
        onClose={() => setConfirm(null)}
        onConfirm={onConfirm}
      />
    </Stack>
  );
}
