import { describe, expect, it } from 'vitest';
import { displayName, formatTicketTime } from './ticket-format';

describe('formatTicketTime', () => {
  const now = new Date(2026, 4, 20, 15, 30);

  it('shows HH:mm for a ticket updated today', () => {
    expect(formatTicketTime(new Date(2026, 4, 20, 9, 5), now)).toBe('09:05');
    expect(formatTicketTime(new Date(2026, 4, 20, 0, 0), now)).toBe('00:00');
  });

  it('shows dd/MM/yyyy for any other day, even yesterday late at night', () => {
    expect(formatTicketTime(new Date(2026, 4, 19, 23, 59), now)).toBe('19/05/2026');
    expect(formatTicketTime(new Date(2025, 11, 3, 10, 0), now)).toBe('03/12/2025');
  });

  it('accepts ISO strings and ignores missing or invalid dates', () => {
    expect(formatTicketTime(new Date(2026, 4, 20, 8, 7).toISOString(), now)).toBe('08:07');
    expect(formatTicketTime('not a date', now)).toBe('');
    expect(formatTicketTime(null, now)).toBe('');
  });
});

describe('displayName', () => {
  it('cuts the name to 10 characters on narrow screens only', () => {
    expect(displayName('Maria Aparecida da Silva', true)).toBe('Maria Apar');
    expect(displayName('Maria Aparecida da Silva', false)).toBe('Maria Aparecida da Silva');
    expect(displayName('Ana', true)).toBe('Ana');
  });
});
