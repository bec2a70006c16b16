import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { renderWithProviders } from '../../test/render';
import { DateInput } from './date-input';

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateInput label="Data" value={value} onChange={setValue} testId="day" />
      <output data-testid="iso">{value}</output>
    </>
  );
}

describe('DateInput', () => {
  afterEach(() => changeLanguage('en'));

  const sectionNames = () => screen.getAllByRole('spinbutton').map((s) => s.getAttribute('aria-label'));
  const shown = () => (screen.getByTestId('day-input') as HTMLInputElement).value;

  it('shows and takes dd/MM/yyyy in pt (pt-BR), the API value staying yyyy-MM-dd', async () => {
    await changeLanguage('pt');
    renderWithProviders(<Harness initial="2026-01-10" />);
    expect(shown()).toBe('10/01/2026');
    expect(sectionNames()).toEqual(['Dia', 'Mês', 'Ano']);
    await userEvent.click(screen.getAllByRole('spinbutton')[0]!);
    await userEvent.keyboard('11022025');
    expect(screen.getByTestId('iso').textContent).toBe('2025-02-11');
    expect(shown()).toBe('11/02/2025');
  });

  it('shows dd/MM/yyyy in es', async () => {
    await changeLanguage('es');
    renderWithProviders(<Harness initial="2026-01-10" />);
    expect(shown()).toBe('10/01/2026');
  });

  it('shows and takes MM/dd/yyyy in en', async () => {
    await changeLanguage('en');
    renderWithProviders(<Harness initial="2026-01-10" />);
    expect(shown()).toBe('01/10/2026');
    expect(sectionNames()).toEqual(['Month', 'Day', 'Year']);
    await userEvent.click(screen.getAllByRole('spinbutton')[0]!);
    await userEvent.keyboard('02112025');
    expect(screen.getByTestId('iso').textContent).toBe('2025-02-11');
  });

  it('answers an empty value until the date is whole', async () => {
    await changeLanguage('pt');
    renderWithProviders(<Harness initial="" />);
    expect(shown()).toBe('');
    await userEvent.click(screen.getAllByRole('spinbutton')[0]!);
    await userEvent.keyboard('1102');
    expect(screen.getByTestId('iso').textContent).toBe('');
  });
});
