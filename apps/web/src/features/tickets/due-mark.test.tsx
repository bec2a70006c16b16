import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '../../lib/i18n';
import { renderWithProviders } from '../../test/render';
import { DueMark, dueStateOf } from './due-mark';

const now = new Date(2026, 10, 27, 13, 0);
const at = (hours: number, minutes = 0) => new Date(2026, 10, 27, hours, minutes).toISOString();
const ticket = (first: string | null, resolution: string | null, status: 'open' | 'closed' = 'open') => ({
  id: 9,
  status,
  firstResponseDueAt: first,
  resolutionDueAt: resolution,
});

describe('DueMark', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the nearest due time as its accessible name and tooltip, in pt', async () => {
    await i18n.changeLanguage('pt');
    renderWithProviders(<DueMark ticket={ticket(at(14, 30), at(18))} now={now} />);
    const mark = screen.getByRole('img', { name: 'Responder até 14:30' });
    expect(mark.getAttribute('data-overdue')).toBe('false');
    await userEvent.hover(mark);
    expect((await screen.findByRole('tooltip')).textContent).toBe('Responder até 14:30');
  });

  it('marks an overdue ticket', async () => {
    await i18n.changeLanguage('pt');
    renderWithProviders(<DueMark ticket={ticket(null, at(12, 59))} now={now} />);
    expect(screen.getByRole('img', { name: 'Atrasado: resolução' }).getAttribute('data-overdue')).toBe(
      'true',
    );
  });

  it('speaks English and Spanish too', async () => {
    await i18n.changeLanguage('es');
    const { unmount } = renderWithProviders(<DueMark ticket={ticket(null, at(16, 5))} now={now} />);
    expect(screen.getByRole('img', { name: 'Resolver hasta las 16:05' })).toBeTruthy();
    unmount();
    await i18n.changeLanguage('en');
    renderWithProviders(<DueMark ticket={ticket(at(9), null)} now={now} />);
    expect(screen.getByRole('img', { name: 'Overdue: first response' })).toBeTruthy();
  });

  it('turns overdue when the due time passes while on screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      vi.setSystemTime(now);
      renderWithProviders(<DueMark ticket={ticket(at(13, 30), null)} />);
      const mark = screen.getByTestId('ticket-due-9');
      expect(mark.getAttribute('data-overdue')).toBe('false');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(29 * 60_000);
      });
      expect(screen.getByTestId('ticket-due-9').getAttribute('data-overdue')).toBe('false');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(60_000);
      });
      expect(screen.getByRole('img', { name: 'Overdue: first response' }).getAttribute('data-overdue')).toBe(
        'true',
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows nothing without a pending due time or on a closed ticket', () => {
    expect(dueStateOf(ticket(null, null), now)).toBeUndefined();
    expect(dueStateOf(ticket(at(14), at(15), 'closed'), now)).toBeUndefined();
    expect(dueStateOf(ticket(at(16), at(15)), now)).toMatchObject({ target: 'resolution', overdue: false });
    renderWithProviders(<DueMark ticket={ticket(null, null)} now={now} />);
    expect(screen.queryByTestId('ticket-due-9')).toBeNull();
  });
});
