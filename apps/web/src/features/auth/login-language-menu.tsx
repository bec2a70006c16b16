import { AppThemeProvider } from '../../lib/app-theme';
import { LanguageMenu } from '../common/language-menu';

/**
 * The login form's language menu with the MUI theme it needs: a lazy chunk fetched after the form
 * is on screen (login-page.tsx), so MUI is not part of the form's first render.
 */
export function LoginLanguageMenu() {
  return (
    <AppThemeProvider>
      <LanguageMenu color="default" />
    </AppThemeProvider>
  );
}
