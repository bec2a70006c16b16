import { Grid, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { type Plan, ZPlanBody } from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormSwitch, FormTextField } from '../common/form-fields';
import { useConfirmDelete } from '../common/list-page';
import { RecordFormDialog } from '../common/record-form-dialog';
import { RecordsTab } from '../common/records-tab';
import { RowActions } from '../common/row-actions';
import { useRecordDialog } from '../common/use-record-form';
import { formatBrl, useDeletePlan, usePlans, useSavePlan } from './use-accounts';

/** The plan flags (document 3 section 3), in the order the forms show them. */
export const PLAN_FLAG_FIELDS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useReports',
] as const;

type PlanForm = Omit<Plan, 'id'>;
const EMPTY: PlanForm = {
  name: '',
  value: 0,
  users: 1,
  connections: 1,
  queues: 1,
  useCampaigns: false,
  useSchedules: false,
  useInternalChat: false,
  useExternalApi: false,
  useKanban: false,
  useOpenAi: false,
  useIntegrations: false,
  useReports: false,
};

/** Add/edit plan dialog: name, monthly value, limits and flags. */
function PlanModal({ record, onClose }: { record: Plan | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePlan();
  const { id: _id, ...initial } = record ?? { id: 0, ...EMPTY };
  const dialog = useRecordDialog<PlanForm>({
    schema: ZPlanBody,
    defaults: initial,
    save: (values) => save.mutateAsync({ id: record?.id, body: values }),
    saved: t('accounts.plans.saved'),
    onClose,
  });
  const number = (name: 'value' | 'users' | 'connections' | 'queues', step: string) => (
    <FormTextField name={name} number type="number" slotProps={{ htmlInput: { step, min: 0 } }} />
  );
  return (
    <RecordFormDialog
      dialog={dialog}
      ids="plan"
      ns="accounts.plans"
      onClose={onClose}
      title={record ? t('accounts.plans.edit') : t('accounts.plans.add')}
      maxWidth="sm"
      editing={!!record}
    >
      <Stack spacing={2}>
        <FormTextField name="name" autoFocus />
        <Grid container spacing={2}>
          <Grid size={{ xs: 6, sm: 3 }}>{number('value', '0.01')}</Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{number('users', '1')}</Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{number('connections', '1')}</Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{number('queues', '1')}</Grid>
        </Grid>
        <Grid container>
          {PLAN_FLAG_FIELDS.map((flag) => (
            <Grid key={flag} size={{ xs: 12, sm: 6 }}>
              <FormSwitch name={flag} label={t(`accounts.flags.${flag}`)} />
            </Grid>
          ))}
        </Grid>
      </Stack>
    </RecordFormDialog>
  );
}

/** The super user's plans tab of /settings (document 3 section 2): list with add, edit and delete. */
export function PlansTab() {
  const { t } = useTranslation();
  const plans = usePlans();
  const [modal, setModal] = useState<{ record: Plan | null } | null>(null);
  const confirmDelete = useConfirmDelete<Plan>(useDeletePlan(), {
    title: (record) => t('accounts.plans.confirmDelete', { name: record?.name ?? '' }),
    message: t('accounts.irreversible'),
    deletedMessage: t('accounts.plans.deleted'),
  });
  const yesNo = (value: boolean) => (value ? t('accounts.yes') : t('accounts.no'));
  return (
    <RecordsTab
      testId="plans-tab"
      add={{
        label: t('accounts.plans.add'),
        testId: 'add-plan-button',
        onClick: () => setModal({ record: null }),
      }}
      empty={plans.isSuccess && plans.data.length === 0}
      emptyText={t('accounts.plans.empty')}
      modal={modal && <PlanModal record={modal.record} onClose={() => setModal(null)} />}
      deleteDialog={confirmDelete.dialog}
    >
      <Table size="small" sx={{ overflowX: 'auto', display: 'block' }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('accounts.plans.name')}</TableCell>
            <TableCell align="right">{t('accounts.plans.value')}</TableCell>
            <TableCell align="center">{t('accounts.plans.users')}</TableCell>
            <TableCell align="center">{t('accounts.plans.connections')}</TableCell>
            <TableCell align="center">{t('accounts.plans.queues')}</TableCell>
            {PLAN_FLAG_FIELDS.map((flag) => (
              <TableCell key={flag} align="center">
                {t(`accounts.flags.${flag}`)}
              </TableCell>
            ))}
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {(plans.data ?? []).map((plan) => (
            <TableRow key={plan.id} data-testid={`plan-row-${plan.id}`}>
              <TableCell>{plan.name}</TableCell>
              <TableCell align="right">{formatBrl(plan.value)}</TableCell>
              <TableCell align="center">{plan.users}</TableCell>
              <TableCell align="center">{plan.connections}</TableCell>
              <TableCell align="center">{plan.queues}</TableCell>
              {PLAN_FLAG_FIELDS.map((flag) => (
                <TableCell key={flag} align="center">
                  {yesNo(plan[flag])}
                </TableCell>
              ))}
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <RowActions
                  testIdPrefix="plan"
                  id={plan.id}
                  editLabel={t('accounts.plans.editNamed', { name: plan.name })}
                  onEdit={() => setModal({ record: plan })}
                  deleteLabel={t('accounts.plans.deleteNamed', { name: plan.name })}
                  onDelete={() => confirmDelete.ask(plan)}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </RecordsTab>
  );
}
