import {
  Button,
  FormControlLabel,
  Grid,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { type Plan, ZPlanBody } from '@zapdesk/shared';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ConfirmDeleteDialog } from '../common/confirmation-dialog';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import { RowActions } from '../common/row-actions';
import { useRecordForm } from '../common/use-record-form';
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
};

/** Add/edit plan dialog: name, monthly value, limits and flags. */
function PlanModal({ record, onClose }: { record: Plan | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSavePlan();
  const message = useFieldMessage();
  const { id: _id, ...initial } = record ?? { id: 0, ...EMPTY };
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<PlanForm>(ZPlanBody, initial);
  const onSubmit = handleSubmit(async (values) => {
    const saved = await save.mutateAsync({ id: record?.id, body: values }).catch(() => null);
    if (!saved) return;
    toast.success(t('accounts.plans.saved'));
    onClose();
  });
  const number = (name: 'value' | 'users' | 'connections' | 'queues', step: string) => (
    <TextField
      label={t(`accounts.plans.${name}`)}
      type="number"
      fullWidth
      {...register(name, { valueAsNumber: true })}
      error={!!errors[name]}
      helperText={message(errors[name]?.message)}
      slotProps={{ htmlInput: { step, min: 0, 'data-testid': `plan-${name}` } }}
    />
  );
  return (
    <FormDialog
      onClose={onClose}
      title={record ? t('accounts.plans.edit') : t('accounts.plans.add')}
      titleId="plan-modal-title"
      maxWidth="sm"
      onSubmit={onSubmit}
      formTestId="plan-modal"
      editing={!!record}
      submitTestId="plan-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('accounts.plans.name')}
          autoFocus
          fullWidth
          {...register('name')}
          error={!!errors.name}
          helperText={message(errors.name?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'plan-name' } }}
        />
        <Grid container spacing={2}>
          <Grid size={{ xs: 6, sm: 3 }}>{number('value', '0.01')}</Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{number('users', '1')}</Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{number('connections', '1')}</Grid>
          <Grid size={{ xs: 6, sm: 3 }}>{number('queues', '1')}</Grid>
        </Grid>
        <Grid container>
          {PLAN_FLAG_FIELDS.map((flag) => (
            <Grid key={flag} size={{ xs: 12, sm: 6 }}>
              <Controller
                name={flag}
                control={control}
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Switch
                        checked={!!field.value}
                        onChange={(e) => field.onChange(e.target.checked)}
                        slotProps={{ input: { 'data-testid': `plan-${flag}` } as object }}
                      />
                    }
                    label={t(`accounts.flags.${flag}`)}
                  />
                )}
              />
            </Grid>
          ))}
        </Grid>
      </Stack>
    </FormDialog>
  );
}

/** The super user's plans tab of /settings (document 3 section 2): list with add, edit and delete. */
export function PlansTab() {
  const { t } = useTranslation();
  const plans = usePlans();
  const remove = useDeletePlan();
  const [modal, setModal] = useState<{ record: Plan | null } | null>(null);
  const [toDelete, setToDelete] = useState<Plan | null>(null);
  const yesNo = (value: boolean) => (value ? t('accounts.yes') : t('accounts.no'));
  return (
    <Stack spacing={2} data-testid="plans-tab">
      <Stack direction="row" justifyContent="flex-end">
        <Button variant="contained" onClick={() => setModal({ record: null })} data-testid="add-plan-button">
          {t('accounts.plans.add')}
        </Button>
      </Stack>
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
                  onDelete={() => setToDelete(plan)}
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {plans.isSuccess && plans.data.length === 0 && (
        <Typography color="text.secondary">{t('accounts.plans.empty')}</Typography>
      )}
      {modal && <PlanModal record={modal.record} onClose={() => setModal(null)} />}
      <ConfirmDeleteDialog
        target={toDelete}
        title={t('accounts.plans.confirmDelete', { name: toDelete?.name ?? '' })}
        message={t('accounts.irreversible')}
        deletedMessage={t('accounts.plans.deleted')}
        remove={remove}
        onClose={() => setToDelete(null)}
      />
    </Stack>
  );
}
