import { QueryClientProvider } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { onSessionCleared } from '../features/auth/session-context';
import { AppThemeProvider } from '../lib/app-theme';
import { createQueryClient } from '../lib/query-client';

/** One query client for the page's life; emptied when the session ends. */
const queryClient = createQueryClient();
onSessionCleared(() => queryClient.clear());

/**
 * Layout route of every MUI page (the signed-in app, /signup, /forgetpsw): the TanStack Query
 * client and the MUI theme. A lazy chunk, so the login form's first render loads neither
 * (docs/web.md, "Web delivery").
 */
export function AppProviders() {
  return (
    <QueryClientProvider client={queryClient}>
      <AppThemeProvider>
        <Outlet />
      </AppThemeProvider>
    </QueryClientProvider>
  );
}
