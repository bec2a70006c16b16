import { isErrorCode, V } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { type ValidationWording, validationText } from '../../lib/validation-text';

const KNOWN_MESSAGES = new Set<string>(Object.values(V));

export interface FieldMessageOptions {
  /** Messages of form-specific keys (e.g. `duplicated`), already translated. */
  extra?: Record<string, string>;
  /** The form's own wording of validation keys (lib/validation-text.ts), e.g. CLASSIC_WORDING. */
  wording?: ValidationWording;
  /** Show an unknown key as validation.invalid rather than the key itself. */
  unknownAsInvalid?: boolean;
}

/**
 * The translator of a form field's error: a validation key (`tooShort`...) to its text
 * (validationText), an error code (`ERR_...`) to errors.*; undefined for no error.
 */
export function useFieldMessage({ extra, wording, unknownAsInvalid = false }: FieldMessageOptions = {}) {
  const { t } = useTranslation();
  return (key?: string): string | undefined => {
    if (!key) return undefined;
    if (extra && Object.hasOwn(extra, key)) return extra[key];
    if (isErrorCode(key)) return t(`errors.${key}`);
    if (unknownAsInvalid && !KNOWN_MESSAGES.has(key)) return validationText(t, V.invalid);
    return validationText(t, key, wording);
  };
}
