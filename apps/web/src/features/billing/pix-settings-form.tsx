import { Button, Stack, TextField } from '@mui/material';
import type { PixSettings } from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { notifyError } from '../../lib/notify';
import { usePixSettings, useSavePixSettings } from './use-billing';

/**
 * Super user: the platform Pix receiver (manual provider). The fields stay disabled until the saved
 * values arrive, which fill them once: an answer arriving later never overwrites what was typed.
 */
export function PixSettingsForm() {
  const { t } = useTranslation();
  const settings = usePixSettings(true);
  const save = useSavePixSettings();
  const [form, setForm] = useState<PixSettings | undefined>();
  useEffect(() => {
    if (settings.data) setForm((current) => current ?? settings.data);
  }, [settings.data]);
  const field = (name: keyof PixSettings, max: number) => (
    <TextField
      size="small"
      label={t(`billing.pix.${name}`)}
      value={form?.[name] ?? ''}
      disabled={!form}
      onChange={(e) => setForm((f) => f && { ...f, [name]: e.target.value })}
      slotProps={{ htmlInput: { maxLength: max, 'data-testid': `pix-${name}` } }}
    />
  );
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      {field('pixKey', 77)}
      {field('merchantName', 25)}
      {field('merchantCity', 15)}
      <Button
        variant="outlined"
        data-testid="pix-save"
        disabled={!form || save.isPending}
        onClick={() =>
          form &&
          save.mutate(form, { onSuccess: () => toast.success(t('billing.pix.saved')), onError: notifyError })
        }
      >
        {t('billing.pix.save')}
      </Button>
    </Stack>
  );
}
