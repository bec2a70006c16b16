import { TOAST_ERROR_MS } from '@zapdesk/shared';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { notifyError, showToast } from '../../lib/notify';
import { validationText } from '../../lib/validation-text';
import { AuthLink } from './auth-navigation';
import type { LoginErrors } from './login-validation';
import { useSession } from './session-context';

/** zod and the login schema, fetched on demand (login-validation.ts). */
const loadValidation = () => import('./login-validation');

/** The language menu (MUI) arrives after the form: not needed to sign in. Its strings are boot strings. */
const LoginLanguageMenu = lazy(() =>
  import('./login-language-menu').then((m) => ({ default: m.LoginLanguageMenu })),
);

/** How long after the form shows its deferred code is fetched, leaving the network to the form. */
const AFTER_FORM_MS = 400;

/**
 * /login (core section 2): e-mail and password; links to /forgetpsw and /signup. The public route
 * guard sends the user to /tickets once the session is set. Plain elements styled by
 * app/base.css in the theme's colours: the form's first render needs no MUI, TanStack Query or
 * zod, and neither react-router nor react-toastify (the links follow AuthNavigationContext, the
 * toasts load on demand), so the login entry (app/login-entry.tsx) serves it alone
 * (docs/web.md, "Web delivery").
 */
export function LoginPage() {
  const { t } = useTranslation();
  const { login } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<LoginErrors>({});
  const [isSubmitting, setSubmitting] = useState(false);

  // A moment after the form shows: the validation code (so that the first submit does not wait for
  // it; a submit before then loads it itself) and the language menu (MUI and the full strings).
  const [showMenu, setShowMenu] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => {
      void loadValidation().catch(() => undefined);
      setShowMenu(true);
    }, AFTER_FORM_MS);
    return () => clearTimeout(timer);
  }, []);

  /** Validates with ZLoginBody (loaded at the first submit if not there yet), then signs in. */
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    setSubmitting(true);
    try {
      const checked = (await loadValidation()).validateLogin({ email, password });
      setErrors(checked.ok ? {} : checked.errors);
      if (checked.ok) await login(checked.body);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'ERR_SUBSCRIPTION_EXPIRED') {
        const dueDate = typeof err.body?.dueDate === 'string' ? err.body.dueDate : null;
        const { formatDate } = await loadValidation();
        showToast('error', t('auth.subscriptionExpired', { date: formatDate(dueDate) }), {
          toastId: 'subscription-expired',
          autoClose: TOAST_ERROR_MS * 3,
        });
        return;
      }
      notifyError(err);
    } finally {
      setSubmitting(false);
    }
  };

  const emailError = errors.email ? validationText(t, errors.email) : undefined;
  const passwordError = errors.password ? validationText(t, errors.password) : undefined;

  return (
    <main className="zd-auth">
      <div className="zd-auth-card">
        <div className="zd-auth-head">
          <p className="zd-brand">Zapdesk</p>
          {showMenu && (
            <Suspense fallback={null}>
              <LoginLanguageMenu />
            </Suspense>
          )}
        </div>
        <h1>{t('login.title')}</h1>
        <form
          className="zd-form"
          noValidate
          onSubmit={(event) => void onSubmit(event)}
          aria-label={t('login.title')}
        >
          <PlainField
            id="login-email"
            label={t('login.email')}
            error={emailError}
            type="email"
            autoComplete="email"
            autoFocus
            name="email"
            value={email}
            onChange={setEmail}
          />
          <PlainField
            id="login-password"
            label={t('login.password')}
            error={passwordError}
            type="password"
            autoComplete="current-password"
            name="password"
            value={password}
            onChange={setPassword}
          />
          <button className="zd-submit" type="submit" disabled={isSubmitting} data-testid="login-submit">
            {t('login.submit')}
          </button>
          <div className="zd-links">
            <AuthLink to="/forgetpsw">{t('login.forgot')}</AuthLink>
            <AuthLink to="/signup">{t('login.signup')}</AuthLink>
          </div>
        </form>
      </div>
    </main>
  );
}

interface PlainFieldProps {
  id: string;
  label: string;
  /** The message shown under the input (and announced with it); absent when the value is valid. */
  error: string | undefined;
  type: 'email' | 'password';
  autoComplete: string;
  autoFocus?: boolean;
  name: string;
  value: string;
  onChange: (value: string) => void;
}

/** A required plain (non-MUI) labelled input of the login form, with its error under it. */
function PlainField({
  id,
  label,
  error,
  type,
  autoComplete,
  autoFocus,
  name,
  value,
  onChange,
}: PlainFieldProps) {
  return (
    <div className="zd-field" data-error={!!error}>
      <label htmlFor={id}>{label} *</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        // biome-ignore lint/a11y/noAutofocus: the form is the page's only purpose
        autoFocus={autoFocus}
        required
        aria-invalid={!!error}
        aria-describedby={error ? `${id}-error` : undefined}
        name={name}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
      {error && (
        <p className="zd-help" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
