/**
 * The shared error notifier (core section 8): a known error code shows its translated toast for
 * TOAST_ERROR_MS; unknown text is shown as it is; anything else is only logged.
 */
import { isErrorCode, TOAST_ERROR_MS } from '@zapdesk/shared';
import { toast } from 'react-toastify';
import { ApiError } from './api';
import i18n from './i18n';

/** The user-facing text of an error, or null when it has none worth showing. */
export function errorMessage(err: unknown): string | null {
  if (err instanceof ApiError) {
    const code = err.code;
    if (isErrorCode(code)) {
      const text = i18n.t(`errors.${code}`);
      return code === 'ERR_VALIDATION' && err.body?.field ? `${text} (${err.body.field})` : text;
    }
    if (code) return code;
    if (err.body?.message) return err.body.message;
    return err.status === 0 ? i18n.t('errors.network') : err.message || null;
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
  toast.error(message, { toastId: message, autoClose: TOAST_ERROR_MS });
}
