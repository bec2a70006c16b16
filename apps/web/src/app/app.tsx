import { BrowserRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { SessionProvider } from '../features/auth/session-context';
import { PreferencesProvider, usePreferences } from './preferences';
import { AppRoutes } from './router';

function Toasts() {
  const { mode } = usePreferences();
  return <ToastContainer position="top-right" autoClose={3000} theme={mode} newestOnTop />;
}

/**
 * The whole application: preferences, session, toasts and routes. The query client and the MUI
 * theme are a lazy layout route (app-providers.tsx), not needed by the login form.
 */
export function App() {
  return (
    <PreferencesProvider>
      <BrowserRouter>
        <SessionProvider>
          <AppRoutes />
        </SessionProvider>
      </BrowserRouter>
      <Toasts />
    </PreferencesProvider>
  );
}
