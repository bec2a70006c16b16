import type { TFunction } from 'i18next';

/**
 * A form's own wording of validation keys: key (`tooShort`) → another key of the `validation`
 * locale section (`messageTooShort`), for the forms whose spec quotes other words.
 */
export type ValidationWording = Readonly<Record<string, string>>;

/**
 * The spec's words for the user form (core section 5) and the queue-integration form (document 2
 * section 5): 'Required', 'Too Short!', 'Too Long!', 'Invalid email', kept in pt as the spec quotes them.
 */
export const CLASSIC_WORDING: ValidationWording = {
  required: 'classic.required',
  tooShort: 'classic.tooShort',
  tooLong: 'classic.tooLong',
  invalidEmail: 'classic.invalidEmail',
};

/** The spec's 'Mensagem muito curta' for a short text (tags, schedules). */
export const MESSAGE_WORDING: ValidationWording = { tooShort: 'messageTooShort' };

/**
 * The one mapping of validation keys (the shared schemas' `V` messages: `required`, `tooShort`,
 * `tooLong`, `invalidEmail`, ...) to the text shown in the UI language: `validation.<key>` of the
 * locale files, or the key `wording` names instead. An unknown key comes back as given.
 */
export function validationText(t: TFunction, key: string, wording?: ValidationWording): string {
  const wordingKey = wording && Object.hasOwn(wording, key) ? wording[key] : undefined;
  return t(`validation.${wordingKey ?? key}`, { defaultValue: key });
}
