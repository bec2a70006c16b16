/**
 * The shared error notifier (core section 8): a known error code shows its translated toast for
 * TOAST_ERROR_MS; unknown text is shown as it is; anything else is only logged.
 *
 * react-toastify is not a static import here: no first render loads it (docs/web.md, "Web
 * delivery"). The container (app/lazy-toasts.tsx) mounts once the first page is usable or when the
 * first toast asks for it, and the library loads then.
 */
import { isErrorCode, TOAST_ERROR_MS } from '@zapdesk/shared';
import type { ToastContainerProps, ToastContent, ToastOptions, toast as toastFn } from 'react-toastify';
import { ApiError } from './api';
import i18n from './i18n';

/**
 * The toast container's settings (with `theme` from the colour mode), in the full app and the login
 * entry: bottom left, where toasts cover none of the top bar's buttons (full width on phones).
 */
export const TOAST_CONTAINER = {
  position: 'bottom-left',
  autoClose: 3000,
  newestOnTop: true,
} as const satisfies ToastContainerProps;

/** react-toastify's `toast` function. */
export type ToastApi = typeof toastFn;

let toastApi: ToastApi | null = null;
let toastLoad: Promise<ToastApi> | null = null;
const neededListeners = new Set<() => Promise<void> | void>();

/** Uses `api` for every later toast instead of loading react-toastify (a fake in tests). */
export function setToastApi(api: ToastApi): void {
  toastApi = api;
}

/**
 * Calls `listener` before each toast is shown, so that a page without a toast container (the
 * login entry) mounts one; the toast waits for the promise the listener returns (the container
 * mounted). Returns the unsubscribe.
 */
export function onToastNeeded(listener: () => Promise<void> | void): () => void {
  neededListeners.add(listener);
  return () => neededListeners.delete(listener);
}

/** react-toastify's `toast`, loaded on the first call (a failed download is tried again next time). */
export function loadToastApi(): Promise<ToastApi> {
  if (toastApi) return Promise.resolve(toastApi);
  if (!toastLoad) {
    toastLoad = import('react-toastify').then((module) => {
      toastApi ??= module.toast;
      return toastApi;
    });
    toastLoad.catch(() => {
      toastLoad = null;
    });
  }
  return toastLoad;
}

/**
 * Shows a toast of `type` with `message` (`options` as react-toastify takes them): at once in the
 * full app; in the login entry once the library is loaded and the container mounted. A failed
 * download is logged, not thrown.
 */
export function showToast(
  type: 'error' | 'warning' | 'success' | 'info',
  message: ToastContent,
  options?: ToastOptions,
): void {
  const show = (api: ToastApi) => {
    if (type === 'warning') api.warn(message, options);
    else api[type](message, options);
  };
  if (toastApi && neededListeners.size === 0) {
    show(toastApi);
    return;
  }
  const mounted = Promise.all([...neededListeners].map((listener) => listener()));
  Promise.all([loadToastApi(), mounted]).then(
    ([api]) => show(api),
    (err: unknown) => console.error(message, err),
  );
}

/**
 * The user-facing text of an error, or null when it has none worth showing (core section 7
 * "Errors"): a known code translated, an unknown code or the answer's own text as it is, a network
 * failure as such; an answer with neither (a bare status, an HTML error page) is only logged.
 */
export function errorMessage(err: unknown): string | null {
  if (err instanceof ApiError) {
    const code = err.code;
    if (isErrorCode(code)) {
      // A provider's own text (ERR_CRM_*: plain and bounded by the server) fills `{{message}}`.
      const message = typeof err.body?.message === 'string' ? err.body.message : '';
      const text = i18n.t(`errors.${code}`, { message });
      return code === 'ERR_VALIDATION' && err.body?.field ? `${text} (${err.body.field})` : text;
    }
    if (code) return code;
    if (err.status === 0) return i18n.t('errors.network');
    const text = err.text?.trim();
    return text && !text.startsWith('<') ? text : null;
  }
  if (typeof err === 'string' && err) return err;
  return null;
}

/** Shows the toast for `err` (one toast per message at a time) or logs it. */
export function notifyError(err: unknown): void {
  const message = errorMessage(err);
  if (!message) {
    console.error(err);
    return;
  }
  showToast('error', message, { toastId: message, autoClose: TOAST_ERROR_MS });
}
