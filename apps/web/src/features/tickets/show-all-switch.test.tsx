import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetFirstPageForTests, settleFirstPage } from '../../lib/first-page';
import { renderWithProviders } from '../../test/render';
import { ShowAllSwitch } from './show-all-switch';

function Harness({ onChange }: { onChange: (checked: boolean) => void }) {
  const [checked, setChecked] = useState(false);
  return (
    <ShowAllSwitch
      label="All"
      checked={checked}
      onChange={(value) => {
        onChange(value);
        setChecked(value);
      }}
    />
  );
}

describe('ShowAllSwitch', () => {
  afterEach(() => resetFirstPageForTests());

  it('works in its first, plain drawing, then as MUI’s switch once the first page is usable', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    const plain = screen.getByTestId('show-all-switch') as HTMLInputElement;
    expect(plain.classList.contains('MuiSwitch-input')).toBe(false);
    expect(screen.getByLabelText('All')).toBe(plain);
    await user.click(plain);
    expect(onChange).toHaveBeenLastCalledWith(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByTestId('show-all-switch')).toBe(plain);

    act(() => settleFirstPage());
    await waitFor(() =>
      expect(screen.getByTestId('show-all-switch').classList.contains('MuiSwitch-input')).toBe(true),
    );
    const mui = screen.getByTestId('show-all-switch') as HTMLInputElement;
    expect(mui.checked).toBe(true);
    await user.click(mui);
    expect(onChange).toHaveBeenLastCalledWith(false);
  });
});
