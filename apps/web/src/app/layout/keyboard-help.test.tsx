import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import i18n from '../../lib/i18n';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { isTypingTarget, KeyboardHelp, openKeyboardHelp } from './keyboard-help';

const renderHelp = () =>
  renderWithProviders(
    <>
      <input data-testid="field" />
      <div contentEditable data-testid="editable" />
      <button type="button" data-testid="button">
        x
      </button>
      <KeyboardHelp />
    </>,
    { user: createSessionUser() },
  );

describe('KeyboardHelp', () => {
  it('opens on ? outside text fields and lists the shortcuts that exist', async () => {
    const user = userEvent.setup();
    renderHelp();
    await user.click(screen.getByTestId('button'));
    await user.keyboard('?');
    const sheet = await screen.findByTestId('keyboard-help');
    for (const action of ['Send the message', 'Break the line', 'Bold (*text*)', 'Italic (_text_)'])
      expect(within(sheet).getByText(action)).toBeTruthy();
    expect(within(sheet).getByText('Strikethrough (~text~)').closest('tr')?.textContent).toBe(
      'Ctrl + Shift + XStrikethrough (~text~)',
    );
    await user.click(screen.getByTestId('keyboard-help-close'));
    await waitFor(() => expect(screen.queryByTestId('keyboard-help')).toBeNull());
  });

  it('leaves a ? typed in a text field to the field', async () => {
    const user = userEvent.setup();
    renderHelp();
    await user.click(screen.getByTestId('field'));
    await user.keyboard('Tudo bem?');
    expect((screen.getByTestId('field') as HTMLInputElement).value).toBe('Tudo bem?');
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByTestId('keyboard-help')).toBeNull();
    expect(isTypingTarget(screen.getByTestId('editable'))).toBe(true);
    expect(isTypingTarget(screen.getByTestId('button'))).toBe(false);
  });

  it('opens from a menu through openKeyboardHelp, in the UI language', async () => {
    await i18n.changeLanguage('pt');
    try {
      renderHelp();
      act(() => openKeyboardHelp());
      expect(await screen.findByText('Atalhos de teclado')).toBeTruthy();
      expect(screen.getByText('Quebrar a linha')).toBeTruthy();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
