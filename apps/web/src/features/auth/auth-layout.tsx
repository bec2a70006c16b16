import { Box, Container, Paper, Stack, Typography } from '@mui/material';
import { lazy, type ReactNode, Suspense } from 'react';

/** The language menu arrives just after the form: it is not needed to sign in. */
const LanguageMenu = lazy(() => import('../common/language-menu').then((m) => ({ default: m.LanguageMenu })));

/** Frame of the public pages: product name, language menu and a centred card. */
export function AuthLayout({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', bgcolor: 'background.default', py: 4 }}
    >
      <Container maxWidth="xs">
        <Paper sx={{ p: 4 }} elevation={3}>
          <Stack direction="row" justifyContent="space-between" alignItems="center" sx={{ mb: 2 }}>
            <Typography variant="h5" color="primary" fontWeight={700}>
              Zapdesk
            </Typography>
            <Suspense fallback={<Box sx={{ width: 40, height: 40 }} />}>
              <LanguageMenu color="default" />
            </Suspense>
          </Stack>
          <Typography variant="h6" component="h1" sx={{ mb: 2 }}>
            {title}
          </Typography>
          {children}
        </Paper>
      </Container>
    </Box>
  );
}
