import ConstructionIcon from '@mui/icons-material/Construction';
import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** Placeholder for a page of the route table that is not built yet: its title and a notice. */
export function ComingSoonPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 4 }} data-testid="coming-soon">
      <Stack spacing={2} alignItems="flex-start">
        <Typography variant="h5" component="h1">
          {t(titleKey)}
        </Typography>
        <Stack direction="row" spacing={1} alignItems="center" color="text.secondary">
          <ConstructionIcon />
          <Typography>{t('pages.comingSoon')}</Typography>
        </Stack>
      </Stack>
    </Paper>
  );
}
