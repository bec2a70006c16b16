import { TableCell, TableRow } from '@mui/material';
import type { QueueIntegration } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../common/data-table';
import { ListPage, useConfirmDelete } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { useEditTarget, usePageRows, useSearchBox } from '../common/use-list-page';
import { IntegrationLogo } from './integration-logo';
import { usePlanGate } from './plan-gate';
import { useDeleteIntegration, useIntegrationsList } from './use-bots';

/** The form, loaded when it is first opened. */
const IntegrationModal = lazy(() =>
  import('./integration-modal').then((m) => ({ default: m.IntegrationModal })),
);

/**
 * /queue-integration (document 2 section 2): searchable list of type logo, id, name and actions
 * with infinite scroll; add/edit dialog per type; delete confirmation. Without the plan's
 * useIntegrations: error toast and back to / after 1 s.
 */
export function QueueIntegrationPage() {
  const allowed = usePlanGate('useIntegrations');
  return allowed ? <IntegrationsList /> : null;
}

function IntegrationsList() {
  const { t } = useTranslation();
  const search = useSearchBox(t('bots.search'), 'integrations-search');
  const list = useIntegrationsList(search.param);
  const modal = useEditTarget<{ id: number | null }>(
    { id: null },
    { label: t('bots.integrations.add'), testId: 'add-integration-button' },
  );
  const confirmDelete = useConfirmDelete<QueueIntegration>(useDeleteIntegration(), {
    title: (record) => t('bots.integrations.confirmDelete', { name: record?.name ?? '' }),
    message: t('bots.confirmDeleteMessage'),
    deletedMessage: t('bots.integrations.deleted'),
  });
  const rows = usePageRows(list, 'queueIntegrations');
  return (
    <ListPage
      fill
      title={t('bots.integrations.title')}
      search={search.box}
      add={modal.add}
      modal={modal.target && <IntegrationModal integrationId={modal.target.id} onClose={modal.close} />}
      deleteDialog={confirmDelete.dialog}
    >
      <DataTable
        testId="integrations-table"
        pages={list}
        columns={[
          { width: 60 },
          { label: t('bots.integrations.id'), width: 80 },
          { label: t('bots.integrations.fields.name') },
          { label: t('bots.actions'), width: 120, align: 'center' },
        ]}
      >
        {rows.map((row) => (
          <TableRow key={row.id} hover data-testid={`integration-row-${row.id}`}>
            <TableCell>
              <IntegrationLogo type={row.type} />
            </TableCell>
            <TableCell>{row.id}</TableCell>
            <TableCell>{row.name}</TableCell>
            <RowActionsCell
              testIdPrefix="integration"
              id={row.id}
              editLabel={t('bots.integrations.edit')}
              onEdit={() => modal.open({ id: row.id })}
              deleteLabel={t('bots.delete')}
              onDelete={() => confirmDelete.ask(row)}
            />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
