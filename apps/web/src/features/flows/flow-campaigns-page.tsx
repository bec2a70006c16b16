import { Switch, TableCell, TableRow, Typography } from '@mui/material';
import { can } from '@zapdesk/shared';
import { lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useCurrentUser } from '../auth/session-context';
import { DataTable } from '../common/data-table';
import { ListPage, useRecordListPage } from '../common/list-page';
import { RowActions } from '../common/row-actions';
import { usePageRows } from '../common/use-list-page';
import { FlowPlanGate } from './flow-plan-gate';
import { canEditFlows, type FlowCampaign } from './flow-types';
import { useDeleteFlowCampaign, useFlowCampaigns, useSaveFlowCampaign } from './use-flow-campaigns';

/** The campaign form (react-hook-form, zod), loaded when it is first opened. */
const FlowCampaignDialog = lazy(() =>
  import('./flow-campaign-dialog').then((m) => ({ default: m.FlowCampaignDialog })),
);

/**
 * /phrase-lists, flow campaigns (document 3 sections 2, 4 and 6): name, flow, connection, phrase
 * and a status switch (Ativo / Desativado) per row, add/edit dialog; the delete action only for
 * profiles allowed contacts-page:deleteContact.
 */
export function FlowCampaignsPage() {
  return (
    <FlowPlanGate>
      <FlowCampaignsList />
    </FlowPlanGate>
  );
}

function FlowCampaignsList() {
  const { t } = useTranslation();
  const me = useCurrentUser();
  const canEdit = canEditFlows(me);
  const canDelete = canEdit && can(me.profile, 'contacts-page:deleteContact');
  const list = useFlowCampaigns();
  const save = useSaveFlowCampaign();
  const page = useRecordListPage<FlowCampaign, { id: number | null }>({
    ns: 'flows.campaigns',
    addTestId: 'add-flow-campaign',
    blank: { id: null },
    edit: (campaign) => ({ id: campaign.id }),
    remove: useDeleteFlowCampaign(),
  });
  const campaigns = usePageRows(list, 'flow');

  const toggle = (campaign: FlowCampaign, status: boolean) =>
    save.mutate(
      {
        id: campaign.id,
        body: {
          name: campaign.name,
          flowId: campaign.flowId,
          whatsappId: campaign.whatsappId,
          phrase: campaign.phrase,
          status,
        },
      },
      { onSuccess: () => toast.success(t('flows.campaigns.toasts.updated')) },
    );

  return (
    <ListPage
      fill
      {...page.frame}
      add={canEdit ? page.frame.add : undefined}
      modal={page.target && <FlowCampaignDialog campaignId={page.target.id} onClose={page.close} />}
    >
      <DataTable
        testId="flow-campaigns-table"
        pages={list}
        columns={[
          { label: t('flows.campaigns.name') },
          { label: t('flows.campaigns.flow') },
          { label: t('flows.campaigns.connection') },
          { label: t('flows.campaigns.phrase') },
          { label: t('flows.campaigns.status'), width: 160, align: 'center' },
          { label: t('flows.table.actions'), width: 120, align: 'center' },
        ]}
      >
        {campaigns.map((campaign) => (
          <TableRow key={campaign.id} hover data-testid={`flow-campaign-row-${campaign.id}`}>
            <TableCell>{campaign.name}</TableCell>
            <TableCell>{campaign.flow?.name ?? '—'}</TableCell>
            <TableCell>{campaign.whatsapp?.name ?? '—'}</TableCell>
            <TableCell>{campaign.phrase}</TableCell>
            <TableCell align="center">
              <Switch
                size="small"
                checked={campaign.status}
                disabled={!canEdit}
                onChange={(e) => toggle(campaign, e.target.checked)}
                slotProps={{
                  input: {
                    'aria-label': t('flows.campaigns.status'),
                    // @ts-expect-error data attributes pass through to the input
                    'data-testid': `flow-campaign-status-${campaign.id}`,
                  },
                }}
              />
              <Typography variant="caption" component="span">
                {campaign.status ? t('flows.campaigns.active') : t('flows.campaigns.inactive')}
              </Typography>
            </TableCell>
            <TableCell align="center">
              {canEdit && (
                <RowActions
                  testIdPrefix="flow-campaign"
                  {...page.actions(campaign)}
                  onDelete={canDelete ? page.actions(campaign).onDelete : undefined}
                />
              )}
            </TableCell>
          </TableRow>
        ))}
      </DataTable>
      {list.isSuccess && campaigns.length === 0 && (
        <Typography color="text.secondary" data-testid="flow-campaigns-empty">
          {t('flows.campaigns.empty')}
        </Typography>
      )}
    </ListPage>
  );
}
