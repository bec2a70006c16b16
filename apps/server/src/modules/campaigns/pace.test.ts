import { describe, expect, it } from 'vitest';
import { localDay, nextSendAt, type PaceSettings, planSends, waitAfterSend } from './pace.js';

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

describe('the sends one pace step takes', () => {
  const zero = {
    ...base,
    messageInterval: 0,
    longerIntervalAfter: 0,
    sendWindowStart: '00:00',
    sendWindowEnd: '00:00',
  };
  const fresh = { sentInRun: 0, day: '', sentToday: 0 };
  const never = () => {
    throw new Error('no jitter: random is not drawn');
  };

  it('with interval 0 takes a whole batch, all without a wait', () => {
    const plan = planSends(fresh, zero, sp(10), never, 50, TZ);
    expect(plan).toHaveLength(50);
    expect(plan.every((p) => p.seconds === 0)).toBe(true);
  });

  it('with an interval or a jitter takes one send', () => {
    expect(planSends(fresh, { ...zero, messageInterval: 20 }, sp(10), never, 50, TZ)).toEqual([
      { seconds: 20, sentInRun: 1 },
    ]);
    expect(planSends(fresh, { ...zero, jitterSeconds: 4 }, sp(10), () => 0.5, 50, TZ)).toEqual([
      { seconds: 2, sentInRun: 1 },
    ]);
  });

  it('stops at the send that completes a run (greaterInterval after it) and at the daily cap left', () => {
    const longer = { ...zero, longerIntervalAfter: 20, greaterInterval: 60 };
    const plan = planSends({ ...fresh, sentInRun: 15 }, longer, sp(10), never, 50, TZ);
    expect(plan).toHaveLength(5);
    expect(plan.at(-1)).toEqual({ seconds: 60, sentInRun: 0 });
    const capped = { ...zero, dailyCap: 100 };
    expect(
      planSends({ ...fresh, day: '2026-03-10', sentToday: 97 }, capped, sp(10), never, 50, TZ),
    ).toHaveLength(3);
    // A new local day starts its count again.
    expect(
      planSends({ ...fresh, day: '2026-03-09', sentToday: 100 }, capped, sp(10), never, 50, TZ),
    ).toHaveLength(50);
  });
});
