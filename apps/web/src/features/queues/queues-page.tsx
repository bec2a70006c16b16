import { Box, Stack, TableCell, TableRow, Typography } from '@mui/material';
import type { Queue } from '@zapdesk/shared';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../common/data-table';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { useDeleteQueue, useQueueList } from './use-queues';

/** The form (react-hook-form, zod), loaded when it is first opened. */
const QueueModal = lazy(() => import('./queue-modal').then((m) => ({ default: m.QueueModal })));

/**
 * /queues (document 2 section 2): table of id, name, colour, order, greeting and actions, with the
 * add/edit modal and delete after confirmation.
 */
export function QueuesPage() {
  const { t } = useTranslation();
  const list = useQueueList();
  const [modal, setModal] = useState<{ queueId: number | null } | null>(null);
  const confirmDelete = useConfirmDelete<Queue>(useDeleteQueue(), 'queues');

  return (
    <ListPage
      rowFrom="xs"
      title={t('queues.title')}
      add={{
        label: t('queues.add'),
        testId: 'add-queue-button',
        onClick: () => setModal({ queueId: null }),
      }}
      modal={modal && <QueueModal open queueId={modal.queueId} onClose={() => setModal(null)} />}
      deleteDialog={confirmDelete.dialog}
    >
      <DataTable
        testId="queues-table"
        columns={[
          { label: t('queues.table.id'), width: 80 },
          { label: t('queues.table.name') },
          { label: t('queues.table.color'), width: 140 },
          { label: t('queues.table.orderQueue'), width: 100 },
          { label: t('queues.table.greeting') },
          { label: t('queues.table.actions'), width: 120, align: 'center' },
        ]}
      >
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
            <RowActionsCell
              testIdPrefix="queue"
              id={queue.id}
              editLabel={t('queues.edit', { name: queue.name })}
              onEdit={() => setModal({ queueId: queue.id })}
              deleteLabel={t('queues.delete', { name: queue.name })}
              onDelete={() => confirmDelete.ask(queue)}
            />
          </TableRow>
        ))}
        {list.isSuccess && list.data.length === 0 && (
          <TableRow>
            <TableCell colSpan={6}>
              <Typography color="text.secondary">{t('queues.empty')}</Typography>
            </TableCell>
          </TableRow>
        )}
      </DataTable>
    </ListPage>
  );
}
