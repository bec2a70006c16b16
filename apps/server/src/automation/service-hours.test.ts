import { DEFAULT_QUEUE_SCHEDULES } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { addServiceMinutes } from './service-hours.js';

// America/Sao_Paulo is UTC-3 all year (no daylight saving time since 2019).
const at = (iso: string) => new Date(iso);
// Monday..Friday 08:00–18:00 (open until 18:00:59); the default Saturday morning left out, Sunday closed.
const weekdays = DEFAULT_QUEUE_SCHEDULES.filter((d) => d.weekdayEn !== 'saturday');

describe('addServiceMinutes', () => {
  it('counts wall-clock minutes without attendance hours', () => {
    expect(addServiceMinutes(at('2026-11-27T22:00:00Z'), 90, null).toISOString()).toBe(
      '2026-11-27T23:30:00.000Z',
    );
  });

  it('counts only the minutes inside the hours', () => {
    // Friday 17:00 local: 61 minutes left that day (to 18:00:59), so 60 minutes end Friday 18:00.
    expect(addServiceMinutes(at('2026-11-27T20:00:00Z'), 60, weekdays).toISOString()).toBe(
      '2026-11-27T21:00:00.000Z',
    );
    // Friday 17:30 local with 120 minutes: 31 on Friday, 89 from Monday 08:00 → Monday 09:29.
    expect(addServiceMinutes(at('2026-11-27T20:30:00Z'), 120, weekdays).toISOString()).toBe(
      '2026-11-30T12:29:00.000Z',
    );
    // Opened on Saturday: the clock starts Monday 08:00.
    expect(addServiceMinutes(at('2026-11-28T15:00:00Z'), 30, weekdays).toISOString()).toBe(
      '2026-11-30T11:30:00.000Z',
    );
    // Before the hours on a weekday.
    expect(addServiceMinutes(at('2026-11-30T09:00:00Z'), 15, weekdays).toISOString()).toBe(
      '2026-11-30T11:15:00.000Z',
    );
  });

  it('skips whole weeks of long targets', () => {
    const week = 5 * 601; // open minutes per week
    // Monday 08:00 plus two weeks' minutes and 10 more: Monday two weeks later, 08:10.
    expect(addServiceMinutes(at('2026-11-30T11:00:00Z'), 2 * week + 10, weekdays).toISOString()).toBe(
      '2026-12-14T11:10:00.000Z',
    );
    // Exactly one week's minutes from Monday 08:00 ends Friday at the close.
    expect(addServiceMinutes(at('2026-11-30T11:00:00Z'), week, weekdays).toISOString()).toBe(
      '2026-12-04T21:01:00.000Z',
    );
    const yearLong = addServiceMinutes(at('2026-11-30T11:00:00Z'), 525_600, weekdays);
    expect(yearLong.getTime()).toBeGreaterThan(at('2029-01-01T00:00:00Z').getTime());
  });

  it('falls back to wall-clock time when every day is closed', () => {
    const closed = weekdays.map((d) => ({ ...d, startTime: '00:00', endTime: '00:00' }));
    expect(addServiceMinutes(at('2026-11-27T20:00:00Z'), 5, closed).toISOString()).toBe(
      '2026-11-27T20:05:00.000Z',
    );
  });
});
