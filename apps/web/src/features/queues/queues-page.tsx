import AddIcon from '@mui/icons-material/Add';
import DeleteOutlineIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/Edit';
import {
  Box,
  Button,
  IconButton,
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
import type { Queue } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ConfirmationDialog } from '../common/confirmation-dialog';
import { QueueModal } from './queue-modal';
import { useDeleteQueue, useQueueList } from './use-queues';

/**
 * /queues (document 2 section 2): table of id, name, colour, order, greeting and actions, with the
 * add/edit modal and delete after confirmation.
 */
export function QueuesPage() {
  const { t } = useTranslation();
  const list = useQueueList();
  const remove = useDeleteQueue();
  const [modal, setModal] = useState<{ queueId: number | null } | null>(null);
  const [toDelete, setToDelete] = useState<Queue | null>(null);

  return (
    <Stack spacing={2}>
      <Stack direction="row" alignItems="center" spacing={2}>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('queues.title')}
        </Typography>
        <Button
          variant="contained"
          startIcon={<AddIcon />}
          onClick={() => setModal({ queueId: null })}
          data-testid="add-queue-button"
        >
          {t('queues.add')}
        </Button>
      </Stack>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" data-testid="queues-table">
          <TableHead>
            <TableRow>
              <TableCell width={80}>{t('queues.table.id')}</TableCell>
              <TableCell>{t('queues.table.name')}</TableCell>
              <TableCell width={140}>{t('queues.table.color')}</TableCell>
              <TableCell width={100}>{t('queues.table.orderQueue')}</TableCell>
              <TableCell>{t('queues.table.greeting')}</TableCell>
              <TableCell width={120} align="center">
                {t('queues.table.actions')}
              </TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(list.data ?? []).map((queue) => (
              <TableRow key={queue.id} hover data-testid={`queue-row-${queue.id}`}>
                <TableCell>{queue.id}</TableCell>
                <TableCell>{queue.name}</TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1} alignItems="center">
                    <Box sx={{ width: 48, height: 20, borderRadius: 1, bgcolor: queue.color }} />
                    <Typography variant="caption">{queue.color}</Typography>
                  </Stack>
                </TableCell>
                <TableCell>{queue.orderQueue ?? ''}</TableCell>
                <TableCell
                  sx={{ maxWidth: 320, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                >
                  {queue.greetingMessage ?? ''}
                </TableCell>
                <TableCell align="center">
                  <IconButton
                    size="small"
                    aria-label={t('queues.edit', { name: queue.name })}
                    data-testid={`queue-edit-${queue.id}`}
                    onClick={() => setModal({ queueId: queue.id })}
                  >
                    <EditIcon fontSize="small" />
                  </IconButton>
                  <IconButton
                    size="small"
                    aria-label={t('queues.delete', { name: queue.name })}
                    data-testid={`queue-delete-${queue.id}`}
                    onClick={() => setToDelete(queue)}
                  >
                    <DeleteOutlineIcon fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
            {list.isSuccess && list.data.length === 0 && (
              <TableRow>
                <TableCell colSpan={6}>
                  <Typography color="text.secondary">{t('queues.empty')}</Typography>
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </TableContainer>
      {modal && <QueueModal open queueId={modal.queueId} onClose={() => setModal(null)} />}
      <ConfirmationDialog
        open={toDelete !== null}
        title={t('queues.confirmDelete.title', { name: toDelete?.name ?? '' })}
        message={t('queues.confirmDelete.message')}
        onClose={() => setToDelete(null)}
        onConfirm={() => {
          if (toDelete)
            remove.mutate(toDelete.id, { onSuccess: () => toast.success(t('queues.toasts.deleted')) });
        }}
      />
    </Stack>
  );
}
