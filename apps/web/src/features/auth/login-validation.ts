/**
 * What the login form needs only once it is submitted: zod with the login schema, and the date
 * format of the expired-subscription message. login-page.tsx imports this module on demand, so
 * the form is usable before this code arrives (docs/web.md, "Web delivery").
 */
import { type LoginBody, ZLoginBody } from '@zapdesk/shared';

export { formatDate } from '../../lib/format';

/** The first validation message key (`validation.<key>`) of each invalid field of the login form. */
export type LoginErrors = Partial<Record<keyof LoginBody, string>>;

/**
 * Checks the login form against ZLoginBody (core section 2, login): the parsed body, or the first
 * message of each invalid field.
 */
export function validateLogin(
  values: LoginBody,
): { ok: true; body: LoginBody } | { ok: false; errors: LoginErrors } {
  const parsed = ZLoginBody.safeParse(values);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: LoginErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && errors[field] === undefined) {
      errors[field] = issue.message;
    }
  }
  return { ok: false, errors };
}
