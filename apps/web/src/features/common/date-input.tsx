/**
 * Date inputs that follow the UI language (pt-BR dd/MM/yyyy by default, en MM/dd/yyyy, es
 * dd/MM/yyyy): MUI X date pickers over date-fns, whose day/month order comes from the locale.
 */
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS as pickersEn, esES as pickersEs, ptBR as pickersPt } from '@mui/x-date-pickers/locales';
import type { Language } from '@zapdesk/shared';
import { format, isValid, parse } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const DATE_LOCALES = { pt: ptBR, en: enUS, es } as const;
const PICKER_TEXTS = {
  pt: pickersPt.components.MuiLocalizationProvider.defaultProps.localeText,
  en: pickersEn.components.MuiLocalizationProvider.defaultProps.localeText,
  es: pickersEs.components.MuiLocalizationProvider.defaultProps.localeText,
} as const;

/**
 * The date pickers' locale (field order, calendar and its texts) for the UI `language`. Each
 * DateInput provides its own, so the pickers' code loads only with the pages that show a date input.
 */
function DateLocaleProvider({ language, children }: { language: Language; children: ReactNode }) {
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={DATE_LOCALES[language]}
      localeText={PICKER_TEXTS[language]}
    >
      {children}
    </LocalizationProvider>
  );
}

const ISO_DAY = 'yyyy-MM-dd';

/**
 * A calendar-day input. `value` and `onChange` speak the API's `yyyy-MM-dd` ('' when empty or not a
 * whole date yet); what the user sees and types follows the UI language. `testId` names the field
 * (`data-testid` on its root, `${testId}-input` on the hidden input holding the shown text).
 */
export function DateInput({
  label,
  value,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
}) {
  const { i18n } = useTranslation();
  const lang = (i18n.resolvedLanguage ?? i18n.language)?.slice(0, 2);
  const language: Language = lang === 'en' || lang === 'es' ? lang : 'pt';
  const parsed = value ? parse(value, ISO_DAY, new Date()) : null;
  return (
    <DateLocaleProvider language={language}>
      <DatePicker
        label={label}
        value={parsed && isValid(parsed) ? parsed : null}
        onChange={(date) => onChange(date && isValid(date) ? format(date, ISO_DAY) : '')}
        slotProps={{
          textField: {
            size: 'small',
            slotProps: { htmlInput: { 'data-testid': `${testId}-input` } },
            // biome-ignore lint/suspicious/noExplicitAny: data attributes are not in the slot's props type
            ...({ 'data-testid': testId } as any),
          },
        }}
      />
    </DateLocaleProvider>
  );
}
