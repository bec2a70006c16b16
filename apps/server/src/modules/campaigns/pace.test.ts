import { describe, expect, it } from 'vitest';
import { localDay, nextSendAt, type PaceSettings, waitAfterSend } from './pace.js';

const base: PaceSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  jitterSeconds: 0,
  sendWindowStart: '08:00',
  sendWindowEnd: '20:00',
  dailyCap: 0,
};
const TZ = 'America/Sao_Paulo';
/** 2026-03-10 at hh:mm São Paulo time (UTC-3). */
const sp = (hh: number, mm = 0, day = 10) => new Date(Date.UTC(2026, 2, day, hh + 3, mm));

describe('campaign pace on a fake clock', () => {
  it('waits messageInterval between sends and greaterInterval after every longerIntervalAfter sends', () => {
    const settings = { ...base, messageInterval: 5, longerIntervalAfter: 3, greaterInterval: 40 };
    // Simulate 7 sends from t=0: the waits follow the spec's arithmetic exactly.
    let clock = 0;
    let run = 0;
    const sendTimes: number[] = [];
    for (let i = 0; i < 7; i++) {
      sendTimes.push(clock);
      run += 1;
      const wait = waitAfterSend(run, settings, () => 0);
      if (wait.longer) run = 0;
      clock += wait.seconds;
    }
    expect(sendTimes).toEqual([0, 5, 10, 50, 55, 60, 100]);
  });

  it('never takes the longer pause when longerIntervalAfter is 0, and adds jitter below jitterSeconds', () => {
    const settings = { ...base, messageInterval: 10, longerIntervalAfter: 0, jitterSeconds: 4 };
    expect(waitAfterSend(1000, settings, () => 0.5)).toEqual({ seconds: 12, longer: false });
    expect(waitAfterSend(1, settings, () => 0.999).seconds).toBeLessThan(14);
    expect(waitAfterSend(1, { ...settings, messageInterval: 0, jitterSeconds: 0 }).seconds).toBe(0);
  });

  it('keeps sends inside the send window of the company time zone', () => {
    expect(nextSendAt(sp(10, 30), base, { day: '', sentToday: 0 }, TZ)).toEqual(sp(10, 30));
    expect(nextSendAt(sp(6, 15), base, { day: '', sentToday: 0 }, TZ)).toEqual(sp(8));
    expect(nextSendAt(sp(20, 0), base, { day: '', sentToday: 0 }, TZ)).toEqual(sp(8, 0, 11));
    expect(nextSendAt(sp(23, 59), base, { day: '', sentToday: 0 }, TZ)).toEqual(sp(8, 0, 11));
    const allDay = { ...base, sendWindowStart: '00:00', sendWindowEnd: '00:00' };
    expect(nextSendAt(sp(3), allDay, { day: '', sentToday: 0 }, TZ)).toEqual(sp(3));
    const night = { ...base, sendWindowStart: '22:00', sendWindowEnd: '06:00' };
    expect(nextSendAt(sp(23), night, { day: '', sentToday: 0 }, TZ)).toEqual(sp(23));
    expect(nextSendAt(sp(5), night, { day: '', sentToday: 0 }, TZ)).toEqual(sp(5));
    expect(nextSendAt(sp(12), night, { day: '', sentToday: 0 }, TZ)).toEqual(sp(22));
  });

  it('moves to the next day when the daily cap is reached', () => {
    const capped = { ...base, dailyCap: 100 };
    const today = localDay(sp(12), TZ);
    expect(today).toBe('2026-03-10');
    expect(nextSendAt(sp(12), capped, { day: today, sentToday: 99 }, TZ)).toEqual(sp(12));
    expect(nextSendAt(sp(12), capped, { day: today, sentToday: 100 }, TZ)).toEqual(sp(8, 0, 11));
    // Yesterday's count does not hold today.
    expect(nextSendAt(sp(12), capped, { day: '2026-03-09', sentToday: 100 }, TZ)).toEqual(sp(12));
  });
});
