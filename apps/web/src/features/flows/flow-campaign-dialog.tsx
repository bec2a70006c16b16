import { Stack } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { FormSelect, FormSwitch, FormTextField } from '../common/form-fields';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordEditor } from '../common/use-record-form';
import { useConnections } from '../connections/use-connections';
import { type FlowCampaignForm, ZFlowCampaignForm } from './flow-forms';
import { useFlowMessage } from './flow-message';
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
  const flowMessage = useFlowMessage();
  const flows = useFlowOptions();
  const connections = useConnections();
  const save = useSaveFlowCampaign();
  const editing = typeof campaignId === 'number';
  const { shell } = useRecordEditor<FlowCampaignForm, FlowCampaign>(campaignId, useFlowCampaign, {
    schema: ZFlowCampaignForm,
    defaults: EMPTY,
    toForm,
    save: (values) => {
      const body = editing ? values : { ...values, status: undefined };
      return save.mutateAsync({ id: campaignId, body });
    },
    saved: editing ? t('flows.campaigns.toasts.updated') : t('flows.campaigns.toasts.created'),
    onClose,
  });

  const select = (name: 'flowId' | 'whatsappId', options: { id: number; name: string }[] | undefined) => (
    <FormSelect
      name={name}
      numeric
      zeroAsEmpty
      label={t(`flows.campaigns.${name === 'flowId' ? 'flow' : 'connection'}`)}
      testId={`flow-campaign-${name}`}
      options={(options ?? []).map((option) => ({ value: option.id, label: option.name }))}
    />
  );

  return (
    <RecordFormDialog
      {...shell}
      ids={{
        title: 'flow-campaign-dialog-title',
        form: 'flow-campaign-dialog',
        submit: 'flow-campaign-save',
      }}
      messages={flowMessage}
      onClose={onClose}
      title={editing ? t('flows.campaigns.dialog.titleEdit') : t('flows.campaigns.dialog.titleAdd')}
      maxWidth="sm"
    >
      <Stack spacing={2}>
        <FormTextField name="name" label={t('flows.campaigns.name')} autoFocus testId="flow-campaign-name" />
        {select('flowId', flows.data)}
        {select('whatsappId', connections.data)}
        <FormTextField
          name="phrase"
          label={t('flows.campaigns.phrase')}
          hint={t('flows.campaigns.phraseHint')}
          testId="flow-campaign-phrase"
        />
        {editing && (
          <FormSwitch
            name="status"
            label={(on) => (on ? t('flows.campaigns.active') : t('flows.campaigns.inactive'))}
          />
        )}
      </Stack>
    </RecordFormDialog>
  );
}
