import { Autocomplete, CircularProgress, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { CONTACT_SEARCH_MIN_CHARS, type Contact, SEARCH_DEBOUNCE_MS } from '@zapdesk/shared';
import { useState } from 'react';
import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { useDebouncedValue } from '../../lib/use-debounced-value';

/** The part of a contact a form keeps. */
export type ContactRef = Pick<Contact, 'id' | 'name' | 'number'>;

/** GET /contacts?searchParam= once the term has CONTACT_SEARCH_MIN_CHARS (3) characters. */
function useContactSearch(term: string) {
  return useQuery({
    queryKey: ['contacts', 'search', term],
    queryFn: ({ signal }) =>
      api.get<{ contacts: Contact[] }>('/contacts', { searchParam: term, pageNumber: 1 }, signal),
    enabled: term.length >= CONTACT_SEARCH_MIN_CHARS,
    meta: { silent: true },
  });
}

interface ContactAutocompleteProps {
  value: ContactRef | null;
  onChange: (contact: ContactRef | null) => void;
  label: string;
  /** Shown while the term is shorter than 3 characters. */
  typeMoreText: string;
  /** Shown when the search finds nothing. */
  noOptionsText: string;
  error?: boolean;
  helperText?: string;
  autoFocus?: boolean;
  /** The input is `${testId}`, each option `${testId}-option-${id}`. */
  testId: string;
}

/**
 * Contact picker of the forms that address one contact (new ticket, schedule; core section 5):
 * searches the company's contacts by name or number from 3 characters, debounced by
 * SEARCH_DEBOUNCE_MS (500 ms), and hands the form `{ id, name, number }`.
 */
export function ContactAutocomplete({
  value,
  onChange,
  label,
  typeMoreText,
  noOptionsText,
  error,
  helperText,
  autoFocus,
  testId,
}: ContactAutocompleteProps) {
  const [term, setTerm] = useState('');
  const debounced = useDebouncedValue(term.trim(), SEARCH_DEBOUNCE_MS);
  const contacts = useContactSearch(debounced);
  const short = debounced.length < CONTACT_SEARCH_MIN_CHARS;
  return (
    <Autocomplete<ContactRef>
      options={short ? [] : (contacts.data?.contacts ?? [])}
      value={value}
      onChange={(_e, picked) =>
        onChange(picked ? { id: picked.id, name: picked.name, number: picked.number } : null)
      }
      inputValue={term}
      onInputChange={(_e, typed) => setTerm(typed)}
      filterOptions={(x) => x}
      getOptionLabel={(o) => `${o.name}${o.number ? ` - ${o.number}` : ''}`}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      loading={!short && contacts.isFetching}
      noOptionsText={short ? typeMoreText : noOptionsText}
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <li key={key} {...rest} data-testid={`${testId}-option-${option.id}`}>
            {option.name} {option.number ? `(${option.number})` : ''}
          </li>
        );
      }}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus={autoFocus}
          label={label}
          error={error}
          helperText={helperText}
          slotProps={{
            htmlInput: { ...params.inputProps, 'data-testid': testId },
            input: {
              ...params.InputProps,
              endAdornment: (
                <>
                  {!short && contacts.isFetching && <CircularProgress size={18} />}
                  {params.InputProps.endAdornment}
                </>
              ),
            },
          }}
        />
      )}
    />
  );
}

export interface FormContactFieldProps<T extends FieldValues, C, O extends FieldValues> {
  /** The form value (a ContactRef or null) and the form's control. */
  name: Path<T>;
  control: Control<T, C, O>;
  /** The translation prefix `p` of the texts `p.contact` (label), `p.typeMore` and `p.noContacts`. */
  texts: string;
  /** Translates the field's validation key into its error text. */
  message: (key?: string) => string | undefined;
  autoFocus?: boolean;
  testId: string;
}

/** A {@link ContactAutocomplete} bound to the form value `name`, its error text below it. */
export function FormContactField<T extends FieldValues, C, O extends FieldValues>({
  name,
  control,
  texts,
  message,
  autoFocus,
  testId,
}: FormContactFieldProps<T, C, O>) {
  const { t } = useTranslation();
  return (
    <Controller
      name={name}
      control={control}
      render={({ field, fieldState }) => (
        <ContactAutocomplete
          value={field.value}
          onChange={field.onChange}
          autoFocus={autoFocus}
          label={t(`${texts}.contact`)}
          typeMoreText={t(`${texts}.typeMore`)}
          noOptionsText={t(`${texts}.noContacts`)}
          error={!!fieldState.error}
          helperText={message(fieldState.error?.message)}
          testId={testId}
        />
      )}
    />
  );
}
