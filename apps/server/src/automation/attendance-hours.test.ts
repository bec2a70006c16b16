import { DEFAULT_COMPANY_SCHEDULES } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { isWithinSchedule } from './attendance-hours.js';

// 2026-11-23 is a Monday; São Paulo is UTC-3 all year.
const saoPaulo = (iso: string) => new Date(`${iso}-03:00`);

describe('isWithinSchedule', () => {
  it('follows the weekday rows in São Paulo time, both ends inside', () => {
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-23T07:59'))).toBe(false);
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-23T08:00'))).toBe(true);
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-23T18:00'))).toBe(true);
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-23T18:01'))).toBe(false);
    // 23:30 in São Paulo is already Tuesday in UTC: the local weekday decides.
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-21T11:30'))).toBe(true);
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-21T12:30'))).toBe(false);
  });

  it('treats equal start and end, and a missing weekday, as closed', () => {
    expect(isWithinSchedule(DEFAULT_COMPANY_SCHEDULES, saoPaulo('2026-11-22T10:00'))).toBe(false);
    expect(isWithinSchedule([], saoPaulo('2026-11-23T10:00'))).toBe(false);
  });
});
