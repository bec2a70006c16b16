import { TableCell, TableRow } from '@mui/material';
import type { QueueIntegration } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RowActionsCell } from '../common/row-actions-cell';
import { usePageRows } from '../common/use-list-page';
import { botDeleteTexts } from './bot-delete-texts';
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
  const page = useRecordListPage<QueueIntegration, { id: number | null }>({
    ns: 'bots.integrations',
    keys: { search: 'bots.search', delete: 'bots.delete' },
    searchTestId: 'integrations-search',
    addTestId: 'add-integration-button',
    blank: { id: null },
    edit: (row) => ({ id: row.id }),
    remove: useDeleteIntegration(),
    deleteTexts: botDeleteTexts(t, 'integrations'),
  });
  const list = useIntegrationsList(page.param);
  const rows = usePageRows(list, 'queueIntegrations');
  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <IntegrationModal integrationId={page.target.id} onClose={page.close} />}
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
            <RowActionsCell testIdPrefix="integration" {...page.actions(row)} />
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
