import { CssBaseline } from '@mui/material';
import { ThemeProvider } from '@mui/material/styles';
import { type ReactNode, useMemo } from 'react';
import { usePreferences } from './preferences';
import { createAppTheme } from './theme';

/**
 * The MUI theme (colour mode and MUI locale from the preferences) with MUI's CSS baseline. Only
 * the MUI parts of the app load it (app-providers.tsx, the login's language menu), so /login's
 * first render needs no MUI (docs/web.md, "Web delivery").
 */
export function AppThemeProvider({ children }: { children: ReactNode }) {
  const { mode, language } = usePreferences();
  const theme = useMemo(() => createAppTheme(mode, language), [mode, language]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
    </ThemeProvider>
  );
}
