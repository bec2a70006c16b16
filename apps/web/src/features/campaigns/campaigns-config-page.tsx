import { Box, CircularProgress } from '@mui/material';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useCampaignSettings } from './use-campaigns';

/** The form (react-hook-form, zod), fetched while the saved settings load. */
const CampaignsConfigForm = lazy(() =>
  import('./campaigns-config-form').then((m) => ({ default: m.CampaignsConfigForm })),
);

/**
 * /campaigns-config (document 2 sections 3, 5 and 9): asks for the saved settings at once and shows
 * the form (campaigns-config-form.tsx) when its code arrives; its fields stay disabled until the
 * settings answer.
 */
export function CampaignsConfigPage() {
  const { t } = useTranslation();
  const settings = useCampaignSettings();
  return (
    <Suspense
      fallback={
        <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
          <CircularProgress aria-label={t('common.loading')} />
        </Box>
      }
    >
      <CampaignsConfigForm saved={settings.data} />
    </Suspense>
  );
}
