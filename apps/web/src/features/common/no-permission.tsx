import LockIcon from '@mui/icons-material/Lock';
import { Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** The 'Acesso não permitido' state of a page the user may not see. */
export function NoPermission() {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" sx={{ p: 4 }} data-testid="no-permission">
      <Stack direction="row" spacing={1} alignItems="center">
        <LockIcon color="disabled" />
        <Typography>{t('pages.noPermission')}</Typography>
      </Stack>
    </Paper>
  );
}
