import { TextField } from '@mui/material';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { insertAt, MESSAGE_VARIABLES, MessageVariables } from './message-variables';

interface Values {
  greeting: string;
}

/** A one-field form as the modals build it: a controlled MUI text field with the chips under it. */
function Harness({ initial = '', withRef = true }: { initial?: string; withRef?: boolean }) {
  const { control, getValues, setValue } = useForm<Values>({ defaultValues: { greeting: initial } });
  const inputRef = useRef<HTMLTextAreaElement | null>(null);
  const value = useWatch({ control, name: 'greeting' });
  return (
    <>
      <Controller
        control={control}
        name="greeting"
        render={({ field }) => (
          <TextField
            label="Greeting"
            multiline
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
            inputRef={(el: HTMLTextAreaElement | null) => {
              field.ref(el);
              inputRef.current = el;
            }}
            slotProps={{ htmlInput: { 'data-testid': 'greeting' } }}
          />
        )}
      />
      <MessageVariables
        name="greeting"
        getValues={getValues}
        setValue={setValue}
        inputRef={withRef ? inputRef : undefined}
      />
      <output data-testid="form-value">{value}</output>
    </>
  );
}

const field = () => screen.getByTestId('greeting') as HTMLTextAreaElement;
const formValue = () => screen.getByTestId('form-value').textContent;

describe('MessageVariables', () => {
  it('shows the six variables as chips with a label and translated tooltips', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    const group = screen.getByRole('group', { name: 'Variables:' });
    for (const variable of MESSAGE_VARIABLES) {
      expect(within(group).getByTestId(`variable-${variable}`).textContent).toBe(`{{${variable}}}`);
    }
    await user.hover(screen.getByTestId('variable-firstName'));
    expect((await screen.findByRole('tooltip')).textContent).toBe("Contact's first name");
    await user.hover(screen.getByTestId('variable-ms'));
    expect((await screen.findByRole('tooltip', { name: /Greeting by time of day/ })).textContent).toContain(
      'Bom dia',
    );
  });

  it('inserts the placeholder at the caret, updates the form value and puts the caret after it', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness />);
    await user.type(field(), 'Hello , welcome!');
    act(() => field().setSelectionRange(6, 6));
    await user.click(screen.getByTestId('variable-firstName'));
    expect(field().value).toBe('Hello {{firstName}}, welcome!');
    expect(formValue()).toBe('Hello {{firstName}}, welcome!');
    expect(document.activeElement).toBe(field());
    expect(field().selectionStart).toBe(6 + '{{firstName}}'.length);
    expect(field().selectionEnd).toBe(6 + '{{firstName}}'.length);

    // Typing goes on right after the placeholder.
    await user.keyboard(' and');
    expect(formValue()).toBe('Hello {{firstName}} and, welcome!');
  });

  it('replaces the selected text', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness initial="Protocol: XXX" />);
    await user.click(field());
    act(() => field().setSelectionRange(10, 13));
    await user.click(screen.getByTestId('variable-protocol'));
    expect(formValue()).toBe('Protocol: {{protocol}}');
  });

  it('appends at the end when the field never had the caret', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness initial="Good day" />);
    await user.click(screen.getByTestId('variable-date'));
    expect(formValue()).toBe('Good day{{date}}');
    expect(field().value).toBe('Good day{{date}}');
    expect(field().selectionStart).toBe('Good day{{date}}'.length);
  });

  it('appends at the end without an input ref', async () => {
    const user = userEvent.setup();
    renderWithProviders(<Harness initial="At " withRef={false} />);
    await user.click(screen.getByTestId('variable-hour'));
    await user.click(screen.getByTestId('variable-name'));
    expect(formValue()).toBe('At {{hour}}{{name}}');
    expect(field().value).toBe('At {{hour}}{{name}}');
  });
});

describe('insertAt', () => {
  it('inserts, replaces a (reversed) range and clamps positions', () => {
    expect(insertAt('abc', 'X', 1)).toEqual({ text: 'aXbc', caret: 2 });
    expect(insertAt('abcdef', 'X', 4, 1)).toEqual({ text: 'aXef', caret: 2 });
    expect(insertAt('abc', 'X', 99)).toEqual({ text: 'abcX', caret: 4 });
    expect(insertAt('abc', 'X', -5, 1)).toEqual({ text: 'Xbc', caret: 1 });
  });
});
