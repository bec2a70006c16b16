import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { TodoListPage } from './todolist-page';

const stored = () => JSON.parse(localStorage.getItem('tasks') ?? '[]') as { text: string }[];

describe('TodoListPage', () => {
  const setup = () => {
    const user = userEvent.setup();
    renderWithProviders(<TodoListPage />, { user: createSessionUser() });
    return user;
  };

  it('adds a task and keeps it in localStorage "tasks"', async () => {
    const user = setup();
    await user.type(screen.getByTestId('todo-input'), 'Call Maria');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('Call Maria')).toBeTruthy();
    expect(screen.getByText(/^Updated \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeTruthy();
    expect(stored().map((t) => t.text)).toEqual(['Call Maria']);
    expect((screen.getByTestId('todo-input') as HTMLInputElement).value).toBe('');
  });

  it('ignores blank text', async () => {
    const user = setup();
    await user.type(screen.getByTestId('todo-input'), '   ');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.queryAllByTestId('todo-item')).toHaveLength(0);
    expect(stored()).toEqual([]);
  });

  it('edits a task', async () => {
    const user = setup();
    await user.type(screen.getByTestId('todo-input'), 'Draft');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    await user.click(screen.getByRole('button', { name: 'Edit task Draft' }));
    const input = screen.getByTestId('todo-input') as HTMLInputElement;
    expect(input.value).toBe('Draft');
    await user.clear(input);
    await user.type(input, 'Final');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.queryByText('Draft')).toBeNull();
    expect(screen.getByText('Final')).toBeTruthy();
    expect(stored().map((t) => t.text)).toEqual(['Final']);
  });

  it('deletes a task', async () => {
    const user = setup();
    for (const text of ['One', 'Two']) {
      await user.type(screen.getByTestId('todo-input'), text);
      await user.click(screen.getByRole('button', { name: 'Add' }));
    }
    await user.click(screen.getByRole('button', { name: 'Delete task One' }));
    expect(screen.queryByText('One')).toBeNull();
    expect(screen.getByText('Two')).toBeTruthy();
    expect(stored().map((t) => t.text)).toEqual(['Two']);
  });
});
