import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { PlainTabs } from './plain-tabs';

function Harness({ onChange }: { onChange: (value: string) => void }) {
  const [value, setValue] = useState<'a' | 'b' | 'c'>('a');
  return (
    <PlainTabs
      value={value}
      onChange={(v) => {
        onChange(v);
        setValue(v);
      }}
      tabs={[
        { value: 'a', label: 'Alpha', testId: 'tab-a' },
        { value: 'b', label: 'Beta', testId: 'tab-b' },
        { value: 'c', label: 'Gamma', testId: 'tab-c' },
      ]}
    />
  );
}

describe('PlainTabs', () => {
  it('selects on click (not again for the selected tab) and keeps one tab in the tab order', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    expect(screen.getByRole('tablist')).toBeTruthy();
    const a = screen.getByRole('tab', { name: 'Alpha' });
    expect(a.getAttribute('aria-selected')).toBe('true');
    expect(a.tabIndex).toBe(0);
    expect(screen.getByTestId('tab-b').tabIndex).toBe(-1);
    await user.click(a);
    expect(onChange).not.toHaveBeenCalled();
    await user.click(screen.getByTestId('tab-c'));
    expect(onChange).toHaveBeenCalledWith('c');
    expect(screen.getByTestId('tab-c').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('tab-a').tabIndex).toBe(-1);
  });

  it('moves the focus with the arrow, Home and End keys and selects with Enter', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    renderWithProviders(<Harness onChange={onChange} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByTestId('tab-a'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(screen.getByTestId('tab-b'));
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByTestId('tab-c'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByTestId('tab-a'));
    await user.keyboard('{End}{Enter}');
    expect(onChange).toHaveBeenCalledWith('c');
  });
});
