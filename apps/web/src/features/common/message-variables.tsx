import { Box, Chip, Tooltip, Typography } from '@mui/material';
import { type RefObject, useEffect, useId, useRef } from 'react';
import type {
  FieldPathByValue,
  FieldValues,
  PathValue,
  UseFormGetValues,
  UseFormSetValue,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** The placeholders the server fills in automatic messages (core section 9 "Message variables"). */
export const MESSAGE_VARIABLES = ['firstName', 'name', 'ms', 'protocol', 'date', 'hour'] as const;
export type MessageVariable = (typeof MESSAGE_VARIABLES)[number];

/** The placeholder of a variable as it is written in a message: `{{firstName}}`. */
export const placeholderOf = (variable: MessageVariable): string => `{{${variable}}}`;

/**
 * `text` with `insert` replacing the range `start..end` (clamped to the text; the range may be
 * reversed), and the caret position right after the inserted text.
 */
export function insertAt(
  text: string,
  insert: string,
  start: number,
  end: number = start,
): { text: string; caret: number } {
  const clamp = (n: number) => Math.min(Math.max(0, n), text.length);
  const from = clamp(Math.min(start, end));
  const to = clamp(Math.max(start, end));
  return { text: text.slice(0, from) + insert + text.slice(to), caret: from + insert.length };
}

type TextInput = HTMLInputElement | HTMLTextAreaElement;

export interface MessageVariablesProps<T extends FieldValues> {
  /** The string field of the form the chips write into. */
  name: FieldPathByValue<T, string>;
  /** The form's `getValues` (the current text is read from the form). */
  getValues: UseFormGetValues<T>;
  /** The form's `setValue` (the new text is written to the form, marked dirty and revalidated). */
  setValue: UseFormSetValue<T>;
  /**
   * The field's input/textarea (MUI `inputRef`), for the caret. Without it, or while the field has
   * never had the focus, the placeholder goes at the end. The text field should be controlled
   * (Controller / useController) so that MUI sees the new value.
   */
  inputRef?: RefObject<TextInput | null>;
}

/**
 * The message variables as small clickable chips under a message text field, each with a tooltip
 * telling its meaning. A click inserts the placeholder (`{{firstName}}`...) at the field's caret
 * (replacing the selection) or at the end, updates the form value and gives the focus back to the
 * field with the caret right after the placeholder.
 */
export function MessageVariables<T extends FieldValues>({
  name,
  getValues,
  setValue,
  inputRef,
}: MessageVariablesProps<T>) {
  const { t } = useTranslation();
  const labelId = useId();
  /** Whether the field has had the focus, i.e. whether its selection is a caret the user placed. */
  const hadFocus = useRef(false);

  useEffect(() => {
    const input = inputRef?.current;
    if (!input) return;
    if (input.ownerDocument.activeElement === input) hadFocus.current = true;
    const onFocus = () => {
      hadFocus.current = true;
    };
    input.addEventListener('focus', onFocus);
    return () => input.removeEventListener('focus', onFocus);
  }, [inputRef]);

  const insert = (variable: MessageVariable) => {
    const current = String(getValues(name) ?? '');
    const input = inputRef?.current ?? null;
    const withCaret = input !== null && hadFocus.current && input.value === current;
    const start = withCaret ? (input.selectionStart ?? current.length) : current.length;
    const end = withCaret ? (input.selectionEnd ?? start) : start;
    const next = insertAt(current, placeholderOf(variable), start, end);
    // The DOM gets the text first so the re-render of a controlled field does not move the caret.
    if (input) input.value = next.text;
    setValue(name, next.text as PathValue<T, typeof name>, {
      shouldDirty: true,
      shouldTouch: true,
      shouldValidate: true,
    });
    if (input) {
      input.focus();
      input.setSelectionRange(next.caret, next.caret);
    }
  };

  return (
    <Box
      role="group"
      aria-labelledby={labelId}
      data-testid={`message-variables-${name}`}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 0.5, mt: 0.75 }}
    >
      <Typography id={labelId} variant="caption" color="text.secondary" sx={{ mr: 0.5 }}>
        {t('messageVariables.label')}
      </Typography>
      {MESSAGE_VARIABLES.map((variable) => (
        <Tooltip key={variable} title={t(`messageVariables.${variable}`)} describeChild>
          <Chip
            size="small"
            variant="outlined"
            label={placeholderOf(variable)}
            data-testid={`variable-${variable}`}
            // Keeps the focus (and the caret) in the text field while clicking.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => insert(variable)}
            sx={{ fontFamily: 'monospace', height: 22 }}
          />
        </Tooltip>
      ))}
    </Box>
  );
}
