import { QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { BrowserRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { SessionProvider } from '../features/auth/session-context';
import { createQueryClient } from '../lib/query-client';
import { PreferencesProvider, usePreferences } from './preferences';
import { AppRoutes } from './router';

function Toasts() {
  const { mode } = usePreferences();
  return <ToastContainer position="top-right" autoClose={3000} theme={mode} newestOnTop />;
}

/** The whole application: providers, toasts and routes. */
export function App() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <PreferencesProvider>
        <BrowserRouter>
          <SessionProvider>
            <AppRoutes />
          </SessionProvider>
        </BrowserRouter>
        <Toasts />
      </PreferencesProvider>
    </QueryClientProvider>
  );
}
