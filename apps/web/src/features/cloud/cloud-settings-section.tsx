import { Alert, Stack, TextField, Typography } from '@mui/material';
import type { CloudConfigBody } from '@zapdesk/shared';
import { type Ref, useImperativeHandle, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCloudConfig, useSaveCloudConfig, webhookUrl } from './use-cloud';

/** What the connection modal calls once the connection is saved. */
export interface CloudSettingsHandle {
  /**
   * Saves the typed settings for the connection (PUT /whatsapp/:id/cloud); fields left empty keep
   * their stored values. @returns false when the server refused them.
   */
  save(whatsappId: number): Promise<boolean>;
}

type Fields = Required<CloudConfigBody>;
const EMPTY: Fields = { phoneNumberId: '', wabaId: '', accessToken: '', appSecret: '' };

/**
 * The Cloud API part of the connection modal: phone number id, WhatsApp Business Account
 * id, access token and app secret (never shown back: the stored token's last characters only), and,
 * once saved, the webhook URL and verify token to paste into Meta's app dashboard.
 */
export function CloudSettingsSection({
  whatsappId,
  ref,
}: {
  whatsappId: number | null;
  ref: Ref<CloudSettingsHandle>;
}) {
  const { t } = useTranslation();
  const config = useCloudConfig(whatsappId);
  const save = useSaveCloudConfig();
  const [values, setValues] = useState<Partial<Fields>>({});
  const [error, setError] = useState<string | null>(null);
  const stored = config.data;
  const value = (name: keyof Fields) =>
    values[name] ?? (name === 'phoneNumberId' || name === 'wabaId' ? (stored?.[name] ?? '') : '');

  useImperativeHandle(ref, () => ({
    async save(id: number) {
      const body: Partial<Fields> = {};
      for (const key of Object.keys(EMPTY) as (keyof Fields)[]) {
        const typed = values[key]?.trim();
        if (typed) body[key] = typed;
      }
      if (Object.keys(body).length === 0) return true;
      try {
        await save.mutateAsync({ whatsappId: id, body });
        setError(null);
        return true;
      } catch {
        setError(t('cloud.settings.saveFailed'));
        return false;
      }
    },
  }));

  const field = (name: keyof Fields, secret = false) => (
    <TextField
      label={t(`cloud.settings.${name}`)}
      fullWidth
      autoComplete="off"
      type={secret ? 'password' : 'text'}
      value={value(name)}
      onChange={(e) => setValues((v) => ({ ...v, [name]: e.target.value }))}
      helperText={
        name === 'accessToken' && stored?.accessTokenHint
          ? t('cloud.settings.storedToken', { hint: stored.accessTokenHint })
          : name === 'appSecret' && stored?.appSecretSet
            ? t('cloud.settings.storedSecret')
            : undefined
      }
      slotProps={{ htmlInput: { 'data-testid': `cloud-${name}` } }}
    />
  );

  return (
    <Stack spacing={2} data-testid="cloud-settings">
      <Typography variant="subtitle2" component="h3">
        {t('cloud.settings.title')}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('phoneNumberId')}
        {field('wabaId')}
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {field('accessToken', true)}
        {field('appSecret', true)}
      </Stack>
      {error && <Alert severity="error">{error}</Alert>}
      {stored ? (
        <Alert severity="info" data-testid="cloud-webhook">
          <Typography variant="body2">{t('cloud.settings.webhookHelp')}</Typography>
          <Typography variant="body2">
            {t('cloud.settings.webhookUrl')}:{' '}
            <code data-testid="cloud-webhook-url">{webhookUrl(stored.webhookPath)}</code>
          </Typography>
          <Typography variant="body2">
            {t('cloud.settings.verifyToken')}:{' '}
            <code data-testid="cloud-verify-token">{stored.verifyToken}</code>
          </Typography>
        </Alert>
      ) : (
        <Alert severity="info">{t('cloud.settings.afterSave')}</Alert>
      )}
    </Stack>
  );
}
