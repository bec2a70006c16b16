import { describe, expect, it } from 'vitest';
import { daysUntil, formatDate, formatDateTime, formatShortDateTime } from './format';

describe('date formats (pt-BR, core section 1)', () => {
  const date = new Date(2026, 0, 5, 9, 7);

  it('writes day/month/year with leading zeros, with no locale data loaded', () => {
    expect(formatDate(date)).toBe('05/01/2026');
    expect(formatDateTime(date)).toBe('05/01/2026 09:07');
    expect(formatShortDateTime(date)).toBe('05/01/26 09:07');
  });

  it('gives an empty text for a missing or invalid date', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDateTime('not a date')).toBe('');
    expect(formatShortDateTime(undefined)).toBe('');
  });

  it('counts calendar days', () => {
    expect(daysUntil(new Date(2026, 0, 8, 1), date)).toBe(3);
  });
});
