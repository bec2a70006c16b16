import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createSessionUser } from '../../test/fixtures';
import { renderWithProviders } from '../../test/render';
import { QueueFilter } from './queue-filter';

const options = [
  { id: 1, name: 'Sales', color: '#f00' },
  { id: 2, name: 'Support', color: '#00f' },
];

describe('QueueFilter (drawn closed, MUI select on first use)', () => {
  it('shows the label and "all queues", then opens the real select on the first press and picks a queue', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<QueueFilter options={options} value={[]} onChange={onChange} />, {
      user: createSessionUser(),
    });
    const closed = screen.getByRole('combobox', { name: 'Queues' });
    expect(closed.textContent).toBe('All queues');
    expect(screen.queryByTestId('queue-filter-option-1')).toBeNull();
    await user.click(closed);
    await user.click(await screen.findByTestId('queue-filter-option-2'));
    expect(onChange).toHaveBeenCalledWith([2]);
  });

  it('counts the selected known queues and opens from the keyboard', async () => {
    const user = userEvent.setup();
    renderWithProviders(<QueueFilter options={options} value={[1, 2, 99]} onChange={() => {}} />, {
      user: createSessionUser(),
    });
    const closed = screen.getByRole('combobox', { name: 'Queues' });
    expect(closed.textContent).toBe('2 selected');
    closed.focus();
    await user.keyboard('{ArrowDown}');
    const list = await screen.findByRole('listbox');
    expect(within(list).getAllByRole('option')).toHaveLength(2);
  });
});
