import { FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { FormDialog } from '../common/form-dialog';
import { useRecordForm } from '../common/use-record-form';
import { useConnections } from '../connections/use-connections';
import { type FlowCampaignForm, ZFlowCampaignForm } from './flow-forms';
import type { FlowCampaign } from './flow-types';
import { useFlowCampaign, useSaveFlowCampaign } from './use-flow-campaigns';
import { useFlowOptions } from './use-flows';

const EMPTY: FlowCampaignForm = { name: '', flowId: 0, whatsappId: 0, phrase: '', status: true };

const toForm = (c: FlowCampaign): FlowCampaignForm => ({
  name: c.name,
  flowId: c.flowId,
  whatsappId: c.whatsappId,
  phrase: c.phrase,
  status: c.status,
});

/**
 * Add/edit flow campaign dialog (document 3 sections 2, 4 and 5): name, flow, connection and the
 * trigger phrase, all required (the empty ones are flagged); editing also toggles the status.
 */
export function FlowCampaignDialog({
  campaignId,
  onClose,
}: {
  campaignId: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const editing = typeof campaignId === 'number';
  const existing = useFlowCampaign(editing ? campaignId : null);
  const flows = useFlowOptions();
  const connections = useConnections();
  const save = useSaveFlowCampaign();
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<FlowCampaignForm, FlowCampaign>(ZFlowCampaignForm, EMPTY, existing.data, toForm);

  const onSubmit = handleSubmit(async (values) => {
    const body = editing ? values : { ...values, status: undefined };
    const saved = await save.mutateAsync({ id: campaignId, body }).catch(() => null);
    if (!saved) return;
    toast.success(editing ? t('flows.campaigns.toasts.updated') : t('flows.campaigns.toasts.created'));
    onClose();
  });
  const helper = (key?: string) => (key ? t(`flows.validation.${key}`) : undefined);

  const select = (name: 'flowId' | 'whatsappId', options: { id: number; name: string }[] | undefined) => (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={t(`flows.campaigns.${name === 'flowId' ? 'flow' : 'connection'}`)}
          value={field.value || ''}
          onChange={(e) => field.onChange(Number(e.target.value))}
          error={!!errors[name]}
          helperText={helper(errors[name]?.message)}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': `flow-campaign-${name}` } as object } }}
        >
          {(options ?? []).map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <FormDialog
      onClose={onClose}
      title={editing ? t('flows.campaigns.dialog.titleEdit') : t('flows.campaigns.dialog.titleAdd')}
      titleId="flow-campaign-dialog-title"
      maxWidth="sm"
      loading={editing && existing.isPending}
      onSubmit={onSubmit}
      formTestId="flow-campaign-dialog"
      editing={editing}
      submitTestId="flow-campaign-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <TextField
          label={t('flows.campaigns.name')}
          autoFocus
          fullWidth
          {...register('name')}
          error={!!errors.name}
          helperText={helper(errors.name?.message)}
          slotProps={{ htmlInput: { 'data-testid': 'flow-campaign-name' } }}
        />
        {select('flowId', flows.data)}
        {select('whatsappId', connections.data)}
        <TextField
          label={t('flows.campaigns.phrase')}
          fullWidth
          {...register('phrase')}
          error={!!errors.phrase}
          helperText={helper(errors.phrase?.message) ?? t('flows.campaigns.phraseHint')}
          slotProps={{ htmlInput: { 'data-testid': 'flow-campaign-phrase' } }}
        />
        {editing && (
          <Controller
            control={control}
            name="status"
            render={({ field }) => (
              <FormControlLabel
                control={<Switch checked={field.value} onChange={(e) => field.onChange(e.target.checked)} />}
                label={field.value ? t('flows.campaigns.active') : t('flows.campaigns.inactive')}
              />
            )}
          />
        )}
      </Stack>
    </FormDialog>
  );
}
