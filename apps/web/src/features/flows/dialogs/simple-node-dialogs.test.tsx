import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../../test/fixtures';
import { renderWithProviders } from '../../../test/render';
import { MenuDialog, QuestionDialog } from './simple-node-dialogs';

const admin = createSessionUser({ profile: 'admin' });

afterEach(() => localStorage.clear());

describe('the message field of the menu and question dialogs', () => {
  it('menu: focused, required, and saved trimmed with the options', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    renderWithProviders(<MenuDialog onSave={onSave} onClose={() => {}} />, { user: admin });
    const field = screen.getByTestId('flow-menu-message');
    expect(document.activeElement).toBe(field);
    expect(field.tagName).toBe('TEXTAREA');
    await user.type(screen.getByTestId('flow-menu-option-1'), 'Vendas');
    await user.click(screen.getByTestId('flow-menu-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    await user.type(field, '  Escolha uma opção ');
    await user.click(screen.getByTestId('flow-menu-save'));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({
        message: 'Escolha uma opção',
        arrayOption: [{ number: 1, value: 'Vendas' }],
      }),
    );
  });

  it('question: shows the saved message when editing and refuses it emptied', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    renderWithProviders(
      <QuestionDialog
        data={{ typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } }}
        onSave={onSave}
        onClose={() => {}}
      />,
      { user: admin },
    );
    const field = screen.getByTestId('flow-question-message') as HTMLTextAreaElement;
    expect(field.value).toBe('Seu nome?');
    expect(document.activeElement).toBe(field);
    await user.clear(field);
    await user.click(screen.getByTestId('flow-question-save'));
    expect(await screen.findByText('Required')).toBeTruthy();
    expect(onSave).not.toHaveBeenCalled();

    await user.type(field, 'Qual é o seu nome?');
    await user.click(screen.getByTestId('flow-question-save'));
    await waitFor(() =>
      expect(onSave).toHaveBeenCalledWith({
        typebotIntegration: { message: 'Qual é o seu nome?', answerKey: 'nome' },
      }),
    );
  });
});
