import { Assessment, PlayArrow, StopCircleOutlined } from '@mui/icons-material';
import { TableCell, TableRow } from '@mui/material';
import { type Campaign, TOAST_ERROR_MS } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'react-toastify';
import { formatDateTime } from '../../lib/format';
import { errorMessage } from '../../lib/notify';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { ActionIconButton, RowActions } from '../common/row-actions';
import { usePageRows } from '../common/use-list-page';
import { CampaignStatusChip } from './campaign-status';
import { useCampaignCommand, useCampaigns, useDeleteCampaign, useTagOptions } from './use-campaigns';

/** The dialog and its date-time picker load when it first opens (the page's budget). */
const CampaignModal = lazy(() => import('./campaign-modal').then((m) => ({ default: m.CampaignModal })));

/**
 * /campaigns (document 2 sections 2 and 4): table of name, status, contact list or tag, connection,
 * scheduledAt, completedAt and confirmation, with search, add/edit dialog, delete confirmation, the
 * report link, cancel (EM_ANDAMENTO, PROGRAMADA), restart (CANCELADA) and start (INATIVA, through
 * restart); their failures show the error's message in an error toast (section 8).
 */
export function CampaignsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const page = useRecordListPage<Campaign, { id: number | null }>({
    ns: 'campaigns',
    searchTestId: 'campaigns-search',
    addTestId: 'add-campaign',
    blank: { id: null },
    edit: (row) => ({ id: row.id }),
    remove: useDeleteCampaign(),
  });
  const list = useCampaigns(page.param);
  const command = useCampaignCommand();
  const campaigns = usePageRows(list, 'records');
  const tags = useTagOptions();
  const tagName = (id: number) => tags.data?.find((tag) => tag.id === id)?.name ?? `#${id}`;

  const run = (row: Campaign, which: 'cancel' | 'restart') =>
    command.mutate(
      { id: row.id, command: which },
      {
        onSuccess: () =>
          toast.success(
            t(
              which === 'cancel'
                ? 'campaigns.toasts.canceled'
                : row.status === 'INATIVA'
                  ? 'campaigns.toasts.started'
                  : 'campaigns.toasts.restarted',
            ),
          ),
        onError: (err) =>
          toast.error(errorMessage(err) ?? t('campaigns.toasts.commandFailed'), {
            autoClose: TOAST_ERROR_MS,
          }),
      },
    );

  return (
    <ListPage
      fill
      {...page.frame}
      modal={page.target && <CampaignModal campaignId={page.target.id} onClose={page.close} />}
    >
      <DataTable
        testId="campaigns-table"
        pages={list}
        columns={[
          { label: t('campaigns.table.name') },
          { label: t('campaigns.table.status'), align: 'center' },
          { label: t('campaigns.table.recipients') },
          { label: t('campaigns.table.connection') },
          { label: t('campaigns.table.scheduledAt'), align: 'center' },
          { label: t('campaigns.table.completedAt'), align: 'center' },
          { label: t('campaigns.table.confirmation'), align: 'center' },
          { label: t('campaigns.table.actions'), width: 200, align: 'center' },
        ]}
      >
        {campaigns.map((row) => (
          <TableRow key={row.id} hover data-testid={`campaign-row-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell align="center">
              <CampaignStatusChip status={row.status} testId={`campaign-status-${row.id}`} />
            </TableCell>
            <TableCell>
              {row.contactList?.name ??
                (row.tagId !== null
                  ? t('campaigns.table.tagNamed', { name: tagName(row.tagId) })
                  : t('campaigns.table.none'))}
            </TableCell>
            <TableCell>{row.whatsapp?.name ?? t('campaigns.table.defaultConnection')}</TableCell>
            <TableCell align="center">
              {formatDateTime(row.scheduledAt) || t('campaigns.table.none')}
            </TableCell>
            <TableCell align="center">
              {formatDateTime(row.completedAt) || t('campaigns.table.none')}
            </TableCell>
            <TableCell align="center">
              {row.confirmation ? t('campaigns.table.enabled') : t('campaigns.table.disabled')}
            </TableCell>
            <TableCell align="center" sx={{ whiteSpace: 'nowrap' }}>
              <RowActions testIdPrefix="campaign" {...page.actions(row)}>
                {(row.status === 'EM_ANDAMENTO' || row.status === 'PROGRAMADA') && (
                  <ActionIconButton
                    label={t('campaigns.cancel', { name: row.name })}
                    testId={`campaign-cancel-${row.id}`}
                    icon={<StopCircleOutlined fontSize="small" />}
                    onClick={() => run(row, 'cancel')}
                  />
                )}
                {(row.status === 'CANCELADA' || row.status === 'INATIVA') && (
                  <ActionIconButton
                    label={t(row.status === 'INATIVA' ? 'campaigns.start' : 'campaigns.restart', {
                      name: row.name,
                    })}
                    testId={`campaign-restart-${row.id}`}
                    icon={<PlayArrow fontSize="small" />}
                    onClick={() => run(row, 'restart')}
                  />
                )}
                <ActionIconButton
                  label={t('campaigns.report.title', { name: row.name })}
                  testId={`campaign-report-${row.id}`}
                  icon={<Assessment fontSize="small" />}
                  onClick={() => navigate(`/campaign/${row.id}/report`)}
                />
              </RowActions>
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
    </ListPage>
  );
}
