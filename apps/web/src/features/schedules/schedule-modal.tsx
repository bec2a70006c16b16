import { Autocomplete, CircularProgress, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import {
  CONTACT_SEARCH_MIN_CHARS,
  type Contact,
  type Schedule,
  SEARCH_DEBOUNCE_MS,
  ZScheduleBody,
} from '@zapdesk/shared';
import { addHours, format } from 'date-fns';
import { useState } from 'react';
import { Controller } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { api } from '../../lib/api';
import { useDebouncedValue } from '../../lib/use-debounced-value';
import { useFieldMessage } from '../common/field-message';
import { FormDialog } from '../common/form-dialog';
import {
  type MediaAttachment,
  MediaAttachmentField,
  NO_MEDIA_CHANGE,
} from '../common/media-attachment-field';
import { useRecordForm } from '../common/use-record-form';
import { useSaveSchedule } from './use-schedules';

type ContactRef = { id: number; name: string; number: string };

/** Values of the schedule form: sendAt as a local `yyyy-MM-ddTHH:mm` (datetime-local input). */
export interface ScheduleFormValues {
  body: string;
  contact: ContactRef | null;
  sendAt: string;
}

/** The form's rules (document 2 section 9): body ≥ 5 ('Mensagem muito curta'), contact and sendAt required. */
const ZScheduleForm = z.object({
  body: ZScheduleBody.shape.body,
  contact: z
    .object({ id: z.number(), name: z.string(), number: z.string() })
    .nullable()
    .refine((c) => c !== null, 'required'),
  sendAt: z.string().min(1, 'required'),
});

const LOCAL_FORMAT = "yyyy-MM-dd'T'HH:mm";

/** GET /contacts?searchParam= once the term has 3 characters. */
function useContactSearch(term: string) {
  return useQuery({
    queryKey: ['contacts', 'search', term],
    queryFn: ({ signal }) =>
      api.get<{ contacts: Contact[] }>('/contacts', { searchParam: term, pageNumber: 1 }, signal),
    enabled: term.length >= CONTACT_SEARCH_MIN_CHARS,
    meta: { silent: true },
  });
}

interface ScheduleModalProps {
  /** The schedule to edit; absent to add one. */
  record?: Schedule | null;
  /** The contact to preselect (`?contactId=`, the contact drawer). */
  contact?: ContactRef | null;
  /** Preselected send time (a calendar slot); defaults to now plus one hour. */
  start?: Date;
  onClose: () => void;
}

/**
 * Add/edit schedule dialog (document 2 sections 5 and 9): contact autocomplete from 3 characters,
 * message (at least 5 characters), send time (default now plus one hour) and a png/jpg/jpeg image.
 */
export function ScheduleModal({ record, contact, start, onClose }: ScheduleModalProps) {
  const { t } = useTranslation();
  const save = useSaveSchedule();
  const message = useFieldMessage();
  const [media, setMedia] = useState<MediaAttachment>(NO_MEDIA_CHANGE);
  const [term, setTerm] = useState('');
  const debounced = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const contacts = useContactSearch(debounced);
  const short = debounced.length < CONTACT_SEARCH_MIN_CHARS;
  const {
    control,
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useRecordForm<ScheduleFormValues>(ZScheduleForm, {
    body: record?.body ?? '',
    contact: record?.contact ?? contact ?? null,
    sendAt: format(record ? new Date(record.sendAt) : (start ?? addHours(new Date(), 1)), LOCAL_FORMAT),
  });

  const onSubmit = handleSubmit(async (values) => {
    const body = {
      body: values.body,
      contactId: values.contact!.id,
      sendAt: new Date(values.sendAt).toISOString(),
    };
    const saved = await save.mutateAsync({ id: record?.id, body, ...media }).catch(() => null);
    if (!saved) {
      toast.error(t('schedules.toasts.error'));
      return;
    }
    toast.success(t('schedules.toasts.saved'));
    onClose();
  });

  return (
    <FormDialog
      open
      onClose={onClose}
      title={record ? t('schedules.modal.titleEdit') : t('schedules.modal.titleAdd')}
      titleId="schedule-modal-title"
      maxWidth="sm"
      onSubmit={onSubmit}
      formTestId="schedule-modal"
      editing={!!record}
      submitTestId="schedule-save"
      pending={isSubmitting}
    >
      <Stack spacing={2}>
        <Controller
          name="contact"
          control={control}
          render={({ field }) => (
            <Autocomplete
              options={short ? [] : (contacts.data?.contacts ?? [])}
              value={field.value}
              onChange={(_e, value) =>
                field.onChange(value ? { id: value.id, name: value.name, number: value.number } : null)
              }
              inputValue={term}
              onInputChange={(_e, value) => setTerm(value)}
              filterOptions={(x) => x}
              getOptionLabel={(o) => `${o.name}${o.number ? ` - ${o.number}` : ''}`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              loading={!short && contacts.isFetching}
              noOptionsText={short ? t('schedules.modal.typeMore') : t('schedules.modal.noContacts')}
              renderOption={(props, option) => {
                const { key, ...rest } = props as typeof props & { key: string };
                return (
                  <li key={key} {...rest} data-testid={`schedule-contact-option-${option.id}`}>
                    {option.name} {option.number ? `(${option.number})` : ''}
                  </li>
                );
              }}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label={t('schedules.modal.contact')}
                  error={!!errors.contact}
                  helperText={message(errors.contact?.message)}
                  slotProps={{
                    htmlInput: { ...params.inputProps, 'data-testid': 'schedule-contact' },
                    input: {
                      ...params.InputProps,
                      endAdornment: (
                        <>
                          {!short && contacts.isFetching && <CircularProgress size={18} />}
                          {params.InputProps.endAdornment}
                        </>
                      ),
                    },
                  }}
                />
              )}
            />
          )}
        />
        <TextField
          label={t('schedules.modal.body')}
          multiline
          minRows={4}
          fullWidth
          {...register('body')}
          error={!!errors.body}
          helperText={
            errors.body?.message === 'tooShort'
              ? t('schedules.modal.tooShort')
              : message(errors.body?.message)
          }
          slotProps={{ htmlInput: { 'data-testid': 'schedule-body' } }}
        />
        <TextField
          label={t('schedules.modal.sendAt')}
          type="datetime-local"
          fullWidth
          {...register('sendAt')}
          error={!!errors.sendAt}
          helperText={message(errors.sendAt?.message)}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'schedule-send-at' } }}
        />
        <MediaAttachmentField
          label={t('schedules.modal.attach')}
          storedName={record?.mediaName}
          value={media}
          onChange={setMedia}
          accept="image/png,image/jpeg"
          accepts={(file) => /^image\/(png|jpeg)$/.test(file.type)}
          testId="schedule"
        />
      </Stack>
    </FormDialog>
  );
}
