import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import {
  FormControlLabel,
  IconButton,
  InputAdornment,
  MenuItem,
  Stack,
  Switch,
  TextField,
  type TextFieldProps,
} from '@mui/material';
import type { SxProps, Theme } from '@mui/material/styles';
import { type ReactNode, useState } from 'react';
import {
  type FieldValues,
  get,
  type RegisterOptions,
  useController,
  useFormContext,
  useFormState,
} from 'react-hook-form';
import { type IdOption, OptionalIdSelect } from './id-select';
import { MessageTextField, type MessageTextFieldProps } from './message-text-field';
import { useFieldNaming, useFormFieldMessage } from './record-form-dialog';

/** The error of field `name` in the enclosing form, translated, and whether there is one. */
function useFieldError(name: string, errorText?: string) {
  const { errors } = useFormState({ name });
  const message = useFormFieldMessage();
  const key = (get(errors, name) as { message?: string } | undefined)?.message;
  const error = !!get(errors, name);
  return { error, text: error && errorText !== undefined ? errorText : message(key) };
}

/** Adds `data-testid` to a TextField's htmlInput slot props. */
function withInputTestId(slotProps: TextFieldProps['slotProps'], testId?: string) {
  const htmlInput = (slotProps?.htmlInput ?? {}) as object;
  return { ...slotProps, htmlInput: { ...htmlInput, 'data-testid': testId } };
}

export type FormTextFieldProps = Omit<TextFieldProps, 'name' | 'error'> & {
  /** The form value it edits. */
  name: string;
  /** The input's data-testid (by default as the enclosing dialog names its fields). */
  testId?: string;
  /** Read as a number (`valueAsNumber`). */
  number?: boolean;
  /** Further register options (setValueAs...). */
  rules?: RegisterOptions;
  /** Shown under the field while it has no error. */
  hint?: ReactNode;
  /** Shown instead of the translated message when the field has an error. */
  errorText?: string;
};

/**
 * A text field of the enclosing RecordFormDialog's form (full width unless told): registered under
 * `name`, with its validation error in the user's language below it.
 */
export function FormTextField({
  name,
  testId: givenTestId,
  number,
  rules,
  hint,
  errorText,
  slotProps,
  label: givenLabel,
  ...props
}: FormTextFieldProps) {
  const { register } = useFormContext();
  const { error, text } = useFieldError(name, errorText);
  const { label, testId } = useFieldNaming(name, givenLabel, givenTestId);
  return (
    <TextField
      fullWidth
      label={label}
      {...props}
      {...register(name, (number ? { ...rules, valueAsNumber: true } : rules) as RegisterOptions)}
      error={error}
      helperText={text || hint}
      slotProps={withInputTestId(slotProps, testId)}
    />
  );
}

export interface FormSwitchProps {
  name: string;
  /** The label, or the label for the current value (by default as the enclosing dialog names its fields). */
  label?: ReactNode | ((value: unknown) => ReactNode);
  /** The switch input's data-testid. */
  testId?: string;
  /** The values stored when on and off; true and false unless given (e.g. 1 and 0). */
  on?: unknown;
  off?: unknown;
  disabled?: boolean;
  /** The label's style. */
  sx?: SxProps<Theme>;
}

/** A labelled switch of the enclosing RecordFormDialog's form, on while the value is `on`. */
export function FormSwitch({ name, on = true, off = false, disabled, sx, ...given }: FormSwitchProps) {
  const { field } = useController({ name });
  const { label, testId } = useFieldNaming(name, given.label, given.testId);
  return (
    <FormControlLabel
      sx={sx}
      control={
        <Switch
          checked={on === true ? !!field.value : field.value === on}
          onChange={(e) => field.onChange(e.target.checked ? on : off)}
          disabled={disabled}
          slotProps={{ input: { 'data-testid': testId } as object }}
        />
      }
      label={typeof label === 'function' ? label(field.value) : label}
    />
  );
}

/** An option of a FormSelect. */
export interface FormOption {
  value: string | number;
  label: ReactNode;
}

export type FormSelectProps = Omit<TextFieldProps, 'name' | 'select' | 'value' | 'onChange'> & {
  name: string;
  /** The select's data-testid. */
  testId?: string;
  /** The options; or give MenuItems as children. */
  options?: readonly FormOption[];
  /** Store the chosen value as a number. */
  numeric?: boolean;
  /** Store the empty choice ('') as null. */
  emptyAsNull?: boolean;
  /** Show the value 0 as no choice (an id not chosen yet). */
  zeroAsEmpty?: boolean;
  /** Shown instead of the translated message when the field has an error. */
  errorText?: string;
};

/**
 * A select of the enclosing RecordFormDialog's form (full width unless told), showing '' for no
 * value, with its validation error in the user's language below it.
 */
export function FormSelect({
  name,
  testId: givenTestId,
  label: givenLabel,
  options,
  numeric,
  emptyAsNull,
  zeroAsEmpty,
  errorText,
  children,
  helperText,
  slotProps,
  ...props
}: FormSelectProps) {
  const { field } = useController({ name });
  const { error, text } = useFieldError(name, errorText);
  const { label, testId } = useFieldNaming(name, givenLabel, givenTestId);
  return (
    <TextField
      select
      fullWidth
      label={label}
      {...props}
      value={(zeroAsEmpty && field.value === 0 ? '' : field.value) ?? ''}
      onChange={(e) => {
        const raw = e.target.value;
        field.onChange(emptyAsNull && raw === '' ? null : numeric ? Number(raw) : raw);
      }}
      error={error}
      helperText={text || helperText}
      slotProps={{
        ...slotProps,
        select: { ...(slotProps?.select as object), SelectDisplayProps: { 'data-testid': testId } as object },
      }}
    >
      {options?.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
      {children}
    </TextField>
  );
}

export interface FormIdSelectProps {
  /** The form value it edits: a record's id, or null for none. */
  name: string;
  label: string;
  /** The records offered; undefined while they load. */
  options: IdOption[] | undefined;
  disabled?: boolean;
  /** data-testid of the select's hidden input. */
  testId?: string;
}

/**
 * An OptionalIdSelect ('none' first, then the records by name) of the enclosing RecordFormDialog's
 * form, with its validation error in the user's language below it.
 */
export function FormIdSelect({ name, ...props }: FormIdSelectProps) {
  const { field } = useController({ name });
  const { text } = useFieldError(name);
  return <OptionalIdSelect {...props} value={field.value} onChange={field.onChange} error={text} />;
}

export interface FormSecretFieldProps {
  name: string;
  label: string;
  /** The input's data-testid. */
  testId?: string;
  /** The toggle's accessible names while the secret is hidden and while it is shown. */
  showLabel: string;
  hideLabel: string;
  /** The toggle's data-testid. */
  toggleTestId?: string;
}

/** A secret (an API key) of the enclosing form: masked, with a button that shows or hides it. */
export function FormSecretField({
  name,
  label,
  testId,
  showLabel,
  hideLabel,
  toggleTestId,
}: FormSecretFieldProps) {
  const [shown, setShown] = useState(false);
  return (
    <FormTextField
      name={name}
      label={label}
      autoComplete="off"
      type={shown ? 'text' : 'password'}
      testId={testId}
      slotProps={{
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <IconButton
                aria-label={shown ? hideLabel : showLabel}
                data-testid={toggleTestId}
                onClick={() => setShown((v) => !v)}
                edge="end"
              >
                {shown ? <VisibilityOff /> : <Visibility />}
              </IconButton>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}

/**
 * A row (a column on phones) of number fields of the enclosing form, none below 0: each `name`
 * with its `step`, labelled `label(name)`, its input's data-testid `testId(name)`.
 */
export function FormNumberRow({
  fields,
  label,
  testId,
}: {
  fields: readonly { name: string; step?: number }[];
  label: (name: string) => string;
  testId: (name: string) => string;
}) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
      {fields.map(({ name, step }) => (
        <FormTextField
          key={name}
          name={name}
          number
          label={label(name)}
          type="number"
          testId={testId(name)}
          slotProps={{ htmlInput: { step, min: 0 } }}
        />
      ))}
    </Stack>
  );
}

export type FormMessageFieldProps = Omit<
  MessageTextFieldProps<FieldValues>,
  'name' | 'control' | 'getValues' | 'setValue' | 'error'
> & {
  /** The string form value it edits. */
  name: string;
};

/**
 * A MessageTextField (an automatic message with the message variable chips) of the enclosing
 * RecordFormDialog's form, with its validation error in the user's language below it.
 */
export function FormMessageField({ name, ...props }: FormMessageFieldProps) {
  const { control, getValues, setValue } = useFormContext();
  const { text } = useFieldError(name);
  return (
    <MessageTextField
      {...props}
      name={name}
      control={control}
      getValues={getValues}
      setValue={setValue}
      error={text}
    />
  );
}
