import { useTranslation } from 'react-i18next';
import { validationText } from '../../lib/validation-text';

/**
 * The translator of the flow forms' field errors: a flow-specific key (`interval`, `queue`, ...) to
 * `flows.validation.<key>`, the shared keys (`required`, `tooShort`, `nameRequired`, ...) through
 * validationText; undefined for no error.
 */
export function useFlowMessage() {
  const { t, i18n } = useTranslation();
  return (key?: string): string | undefined => {
    if (!key) return undefined;
    return i18n.exists(`flows.validation.${key}`) ? t(`flows.validation.${key}`) : validationText(t, key);
  };
}
