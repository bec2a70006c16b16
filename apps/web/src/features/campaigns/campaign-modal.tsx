import { Alert, Stack, Tab, Tabs, ToggleButton, ToggleButtonGroup } from '@mui/material';
import {
  boundedString,
  CAMPAIGN_MEDIA_MAX_BYTES,
  CAMPAIGN_MESSAGE_KEYS,
  CAMPAIGN_MESSAGE_MAX,
  type CampaignBody,
  type CampaignDetail,
  V,
} from '@zapdesk/shared';
import { useState } from 'react';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { DateTimeInput } from '../common/date-time-input';
import { FormIdSelect, FormMessageField, FormSelect, FormSwitch, FormTextField } from '../common/form-fields';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { RecordFormDialog } from '../common/record-form-dialog';
import { useRecordForm } from '../common/use-record-form';
import { useConnections } from '../connections/use-connections';
import {
  useCampaign,
  useContactListOptions,
  useFileListOptions,
  useSaveCampaign,
  useTagOptions,
} from './use-campaigns';

/** The five message variants (document 2 section 9), numbered from 1. */
const MESSAGE_VARIANTS = CAMPAIGN_MESSAGE_KEYS.map((_key, i) => (i + 1) as 1 | 2 | 3 | 4 | 5);
const ZMessage = z.string().max(CAMPAIGN_MESSAGE_MAX, V.tooLong);

type Variant = (typeof MESSAGE_VARIANTS)[number];
type MessageKey = `message${Variant}`;
type ConfirmationKey = `confirmationMessage${Variant}`;

/** Values of the campaign form. */
export type CampaignFormValues = {
  name: string;
  confirmation: boolean;
  whatsappId: number | null;
  recipients: 'list' | 'tag';
  contactListId: number | null;
  tagId: number | null;
  fileListId: number | null;
  scheduledAt: Date | null;
  templateName: string;
  templateLanguage: string;
} & Record<MessageKey | ConfirmationKey, string>;

/**
 * The form's rules (document 2 section 5): name 2 to 50 characters; the first message required; a
 * contact list or a tag (ERR_CAMPAIGN_NO_LIST otherwise); the first confirmation message required
 * when confirmation is on. No connection means the company's default one.
 */
const ZCampaignForm = z
  .object({
    name: boundedString(2, 50),
    message1: ZMessage.trim().min(1, V.required),
    message2: ZMessage,
    message3: ZMessage,
    message4: ZMessage,
    message5: ZMessage,
    confirmation: z.boolean(),
    confirmationMessage1: ZMessage,
    confirmationMessage2: ZMessage,
    confirmationMessage3: ZMessage,
    confirmationMessage4: ZMessage,
    confirmationMessage5: ZMessage,
    whatsappId: z.number().nullable(),
    recipients: z.enum(['list', 'tag']),
    contactListId: z.number().nullable(),
    tagId: z.number().nullable(),
    fileListId: z.number().nullable(),
    scheduledAt: z.date().nullable(),
    templateName: z.string().trim().max(512, V.tooLong),
    templateLanguage: z.string().trim().max(20, V.tooLong),
  })
  .refine((v) => !v.confirmation || v.confirmationMessage1.trim() !== '', {
    path: ['confirmationMessage1'],
    message: V.required,
  })
  .refine((v) => v.contactListId !== null || v.recipients !== 'list', {
    path: ['contactListId'],
    message: V.required,
  })
  .refine((v) => v.tagId !== null || v.recipients !== 'tag', { path: ['tagId'], message: V.required });

const EMPTY: CampaignFormValues = {
  name: '',
  message1: '',
  message2: '',
  message3: '',
  message4: '',
  message5: '',
  confirmation: false,
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
  whatsappId: null,
  recipients: 'list',
  contactListId: null,
  tagId: null,
  fileListId: null,
  scheduledAt: null,
  templateName: '',
  templateLanguage: '',
};

/** A stored campaign as the form edits it. */
function toForm(c: CampaignDetail): CampaignFormValues {
  return {
    name: c.name,
    message1: c.message1 ?? '',
    message2: c.message2 ?? '',
    message3: c.message3 ?? '',
    message4: c.message4 ?? '',
    message5: c.message5 ?? '',
    confirmation: !!c.confirmation,
    confirmationMessage1: c.confirmationMessage1 ?? '',
    confirmationMessage2: c.confirmationMessage2 ?? '',
    confirmationMessage3: c.confirmationMessage3 ?? '',
    confirmationMessage4: c.confirmationMessage4 ?? '',
    confirmationMessage5: c.confirmationMessage5 ?? '',
    whatsappId: c.whatsappId,
    recipients: c.tagId !== null && c.contactListId === null ? 'tag' : 'list',
    contactListId: c.contactListId,
    tagId: c.tagId,
    fileListId: c.fileListId,
    scheduledAt: c.scheduledAt ? new Date(c.scheduledAt) : null,
    templateName: c.templateName ?? '',
    templateLanguage: c.templateLanguage ?? '',
  };
}

/** The request body of the form's values; the recipients are the list or the tag, never both. */
function toBody(v: CampaignFormValues, cloud: boolean): CampaignBody {
  return {
    name: v.name.trim(),
    message1: v.message1,
    message2: v.message2,
    message3: v.message3,
    message4: v.message4,
    message5: v.message5,
    confirmation: v.confirmation,
    confirmationMessage1: v.confirmationMessage1,
    confirmationMessage2: v.confirmationMessage2,
    confirmationMessage3: v.confirmationMessage3,
    confirmationMessage4: v.confirmationMessage4,
    confirmationMessage5: v.confirmationMessage5,
    whatsappId: v.whatsappId,
    contactListId: v.recipients === 'list' ? v.contactListId : null,
    tagId: v.recipients === 'tag' ? v.tagId : null,
    fileListId: v.fileListId,
    scheduledAt: v.scheduledAt ? v.scheduledAt.toISOString() : null,
    ...(cloud
      ? { templateName: v.templateName.trim() || null, templateLanguage: v.templateLanguage.trim() || null }
      : {}),
  };
}

/**
 * Add/edit campaign dialog (document 2 sections 3 to 5 and 9): name, five message variants in tabs
 * (with their confirmation messages when confirmation is on), contact list or tag, file list, media,
 * connection, scheduledAt, and the template of a Cloud API connection. A campaign that is not
 * editable (section 4) opens read-only, and the title says so.
 */
export function CampaignModal({ campaignId, onClose }: { campaignId: number | null; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = typeof campaignId === 'number';
  const existing = useCampaign(editing ? campaignId : null);
  const save = useSaveCampaign();
  const connections = useConnections();
  const contactLists = useContactListOptions();
  const tags = useTagOptions();
  const fileLists = useFileListOptions();
  const [tab, setTab] = useState(0);
  const [media, setMedia] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  const form = useRecordForm<CampaignFormValues, CampaignDetail>(ZCampaignForm, EMPTY, existing.data, toForm);
  const {
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = form;
  const [confirmation, recipients, whatsappId, name, templateName, templateLanguage] = useWatch({
    control,
    name: ['confirmation', 'recipients', 'whatsappId', 'name', 'templateName', 'templateLanguage'],
  });
  const readOnly = editing && !!existing.data && !existing.data.editable;
  const provider = connections.data?.find((c) => c.id === whatsappId)?.provider;
  const cloud = provider === 'cloud';

  const onSubmit = handleSubmit(
    async (values) => {
      if (readOnly) return;
      const saved = await save
        .mutateAsync({ id: campaignId, body: toBody(values, cloud), ...media })
        .catch(() => null);
      if (!saved) return;
      toast.success(t('campaigns.toasts.success'));
      onClose();
    },
    (invalid) => {
      if (invalid.message1 || invalid.confirmationMessage1) setTab(0);
    },
  );

  const title = readOnly
    ? t('campaigns.modal.titleReadOnly')
    : editing
      ? t('campaigns.modal.titleEdit')
      : t('campaigns.modal.titleAdd');
  const variant = MESSAGE_VARIANTS[tab] ?? 1;

  return (
    <RecordFormDialog
      dialog={{ form, onSubmit, pending: isSubmitting }}
      readOnly={readOnly}
      ids={{ title: 'campaign-modal-title', form: 'campaign-modal', submit: 'campaign-save' }}
      open
      onClose={onClose}
      title={title}
      maxWidth="md"
      scroll="paper"
      loading={editing && existing.isPending}
      editing={editing}
    >
      <Stack spacing={2}>
        {readOnly && (
          <Alert severity="info" data-testid="campaign-read-only">
            {t('campaigns.modal.readOnlyHint')}
          </Alert>
        )}
        {/* The text fields show their watched value, so their labels stay up after a reset. */}
        <FormTextField
          name="name"
          value={name}
          label={t('campaigns.modal.name')}
          autoFocus={!readOnly}
          disabled={readOnly}
          testId="campaign-name"
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <FormSelect
            name="whatsappId"
            numeric
            emptyAsNull
            label={t('campaigns.modal.connection')}
            disabled={readOnly}
            slotProps={{
              htmlInput: { 'data-testid': 'campaign-connection' },
              select: { displayEmpty: true },
              inputLabel: { shrink: true },
            }}
            options={[
              { value: '', label: t('campaigns.modal.defaultConnection') },
              ...(connections.data ?? []).map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
          <Controller
            name="scheduledAt"
            control={control}
            render={({ field }) => (
              <DateTimeInput
                label={t('campaigns.modal.scheduledAt')}
                value={field.value}
                onChange={field.onChange}
                disabled={readOnly}
                testId="campaign-scheduled-at"
              />
            )}
          />
        </Stack>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
          <Controller
            name="recipients"
            control={control}
            render={({ field }) => (
              <ToggleButtonGroup
                exclusive
                size="small"
                disabled={readOnly}
                value={field.value}
                onChange={(_e, value: 'list' | 'tag' | null) => value && field.onChange(value)}
                aria-label={t('campaigns.modal.recipients')}
              >
                <ToggleButton value="list" data-testid="campaign-recipients-list">
                  {t('campaigns.modal.contactList')}
                </ToggleButton>
                <ToggleButton value="tag" data-testid="campaign-recipients-tag">
                  {t('campaigns.modal.tag')}
                </ToggleButton>
              </ToggleButtonGroup>
            )}
          />
          {[
            recipients === 'list'
              ? {
                  name: 'contactListId',
                  label: t('campaigns.modal.contactList'),
                  options: contactLists.data,
                  testId: 'campaign-contact-list',
                }
              : {
                  name: 'tagId',
                  label: t('campaigns.modal.tag'),
                  options: tags.data,
                  testId: 'campaign-tag',
                },
            {
              name: 'fileListId',
              label: t('campaigns.modal.fileList'),
              options: fileLists.data,
              testId: 'campaign-file-list',
            },
          ].map((select) => (
            <FormIdSelect key={select.name} {...select} disabled={readOnly} />
          ))}
        </Stack>
        {cloud && (
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} data-testid="campaign-template">
            <FormTextField
              name="templateName"
              value={templateName}
              label={t('campaigns.modal.templateName')}
              disabled={readOnly}
              hint={t('campaigns.modal.templateHint')}
              testId="campaign-template-name"
            />
            <FormTextField
              name="templateLanguage"
              value={templateLanguage}
              label={t('campaigns.modal.templateLanguage')}
              fullWidth={false}
              sx={{ minWidth: 160 }}
              disabled={readOnly}
              placeholder="pt_BR"
              testId="campaign-template-language"
            />
          </Stack>
        )}
        <FormSwitch
          name="confirmation"
          label={t('campaigns.modal.confirmation')}
          disabled={readOnly}
          testId="campaign-confirmation"
        />
        <Tabs
          value={tab}
          onChange={(_e, next: number) => setTab(next)}
          variant="scrollable"
          aria-label={t('campaigns.modal.variants')}
        >
          {MESSAGE_VARIANTS.map((n) => (
            <Tab
              key={n}
              label={t('campaigns.modal.variant', { n })}
              data-testid={`campaign-variant-tab-${n}`}
              sx={errors[`message${n}`] ? { color: 'error.main' } : undefined}
            />
          ))}
        </Tabs>
        <FormMessageField
          key={`message${variant}`}
          name={`message${variant}`}
          label={t('campaigns.modal.message', { n: variant })}
          testId={`campaign-message${variant}`}
          disabled={readOnly}
          minRows={4}
        />
        {confirmation && (
          <FormMessageField
            key={`confirmationMessage${variant}`}
            name={`confirmationMessage${variant}`}
            label={t('campaigns.modal.confirmationMessage', { n: variant })}
            testId={`campaign-confirmation-message${variant}`}
            disabled={readOnly}
          />
        )}
        {!readOnly && (
          <MediaAttachmentField
            label={t('campaigns.modal.attach')}
            storedName={existing.data?.mediaName}
            value={media}
            onChange={setMedia}
            accepts={(file) => {
              if (file.size <= CAMPAIGN_MEDIA_MAX_BYTES) return true;
              toast.error(t('errors.ERR_PAYLOAD_TOO_LARGE'));
              return false;
            }}
            testId="campaign"
          />
        )}
      </Stack>
    </RecordFormDialog>
  );
}
