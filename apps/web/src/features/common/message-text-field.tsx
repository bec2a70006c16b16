import { Box, TextField } from '@mui/material';
import { useRef } from 'react';
import {
  type Control,
  Controller,
  type FieldPathByValue,
  type FieldValues,
  type UseFormGetValues,
  type UseFormSetValue,
} from 'react-hook-form';
import { MessageVariables } from './message-variables';

export interface MessageTextFieldProps<T extends FieldValues> {
  /** The string field of the form. */
  name: FieldPathByValue<T, string>;
  label: string;
  control: Control<T>;
  getValues: UseFormGetValues<T>;
  setValue: UseFormSetValue<T>;
  /** The translated error of the field, if any (shown as helper text). */
  error?: string;
  /** The input's data-testid. */
  testId: string;
  minRows?: number;
  /** Read-only: the field is disabled and the variable chips are hidden. */
  disabled?: boolean;
}

/**
 * A multiline automatic-message field (greeting, out-of-hours, completion, rating...) controlled by
 * react-hook-form, with the message variable chips under it that insert `{{firstName}}`... at its
 * caret (core section 9 "Message variables").
 */
export function MessageTextField<T extends FieldValues>({
  name,
  label,
  control,
  getValues,
  setValue,
  error,
  testId,
  minRows = 3,
  disabled = false,
}: MessageTextFieldProps<T>) {
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  return (
    <Box sx={{ width: '100%' }}>
      <Controller
        name={name}
        control={control}
        render={({ field }) => (
          <TextField
            label={label}
            multiline
            minRows={minRows}
            fullWidth
            name={field.name}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={(el: HTMLTextAreaElement | null) => {
              field.ref(el);
              inputRef.current = el;
            }}
            disabled={disabled}
            error={!!error}
            helperText={error}
            slotProps={{ htmlInput: { 'data-testid': testId } }}
          />
        )}
      />
      {!disabled && (
        <MessageVariables name={name} getValues={getValues} setValue={setValue} inputRef={inputRef} />
      )}
    </Box>
  );
}
