/**
 * A date and time input that follows the UI language (pt-BR dd/MM/yyyy HH:mm by default): MUI X
 * DateTimePicker over date-fns, loaded only by the dialogs that use it (campaigns, schedules).
 */
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { enUS as pickersEn, esES as pickersEs, ptBR as pickersPt } from '@mui/x-date-pickers/locales';
import { isValid } from 'date-fns';
import { enUS, es, ptBR } from 'date-fns/locale';
import { useTranslation } from 'react-i18next';

const DATE_LOCALES = { pt: ptBR, en: enUS, es } as const;
const PICKER_TEXTS = {
  pt: pickersPt.components.MuiLocalizationProvider.defaultProps.localeText,
  en: pickersEn.components.MuiLocalizationProvider.defaultProps.localeText,
  es: pickersEs.components.MuiLocalizationProvider.defaultProps.localeText,
} as const;

/**
 * `value` is a Date or null (empty); `onChange` gets null for an empty or incomplete entry.
 * `testId` names the field root (`${testId}-input` on the hidden input holding the shown text).
 */
export function DateTimeInput({
  label,
  value,
  onChange,
  testId,
  disabled,
  error,
}: {
  label: string;
  value: Date | null;
  onChange: (value: Date | null) => void;
  testId: string;
  disabled?: boolean;
  error?: string;
}) {
  const { i18n } = useTranslation();
  const lang = (i18n.resolvedLanguage ?? i18n.language)?.slice(0, 2);
  const language = lang === 'en' || lang === 'es' ? lang : 'pt';
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={DATE_LOCALES[language]}
      localeText={PICKER_TEXTS[language]}
    >
      <DateTimePicker
        label={label}
        value={value}
        disabled={disabled}
        ampm={false}
        onChange={(date) => onChange(date && isValid(date) ? date : null)}
        slotProps={{
          field: { clearable: true },
          textField: {
            fullWidth: true,
            error: !!error,
            helperText: error,
            slotProps: { htmlInput: { 'data-testid': `${testId}-input` } },
            // biome-ignore lint/suspicious/noExplicitAny: data attributes are not in the slot's props type
            ...({ 'data-testid': testId } as any),
          },
        }}
      />
    </LocalizationProvider>
  );
}
