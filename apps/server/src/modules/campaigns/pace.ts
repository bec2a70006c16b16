import { TZDate } from '@date-fns/tz';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import { addDays, format } from 'date-fns';

/** The settings the pace of a connection's campaign sends depends on (seconds, HH:mm, sends). */
export interface PaceSettings {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  jitterSeconds: number;
  sendWindowStart: string;
  sendWindowEnd: string;
  dailyCap: number;
}

/** A connection's count of campaign sends on its local day `day` (yyyy-MM-dd). */
export interface DayCount {
  day: string;
  sentToday: number;
}

/**
 * The wait after a send, in seconds (document 2 section 9): `messageInterval`
 * between two sends, or `greaterInterval` when this send completes a run of `longerIntervalAfter`
 * sends (0 = never); plus a random jitter in [0, jitterSeconds). `sentInRun` counts the sends since
 * the last longer pause, this one included. `longer` says the run is over (its count restarts at 0).
 * `random` returns [0, 1) (Math.random by default; tests pass a fixed one).
 */
export function waitAfterSend(
  sentInRun: number,
  settings: PaceSettings,
  random: () => number = Math.random,
): { seconds: number; longer: boolean } {
  const longer = settings.longerIntervalAfter > 0 && sentInRun >= settings.longerIntervalAfter;
  const base = longer ? settings.greaterInterval : settings.messageInterval;
  const jitter = settings.jitterSeconds > 0 ? random() * settings.jitterSeconds : 0;
  return { seconds: base + jitter, longer };
}

const minutesOf = (clock: string) => {
  const [h, m] = clock.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/**
 * The earliest instant at or after `at` when a connection may send a campaign message: inside the
 * send window (sendWindowStart–sendWindowEnd in `timeZone`; equal clocks mean all day; a start after
 * the end is a window across midnight) and on a local day whose sends are below `dailyCap` (0 = no
 * cap; `count` is the connection's count on its day). Pure: the clock is the argument.
 */
export function nextSendAt(
  at: Date,
  settings: PaceSettings,
  count: DayCount,
  timeZone: string = DASHBOARD_TIME_ZONE,
): Date {
  const start = minutesOf(settings.sendWindowStart);
  const end = minutesOf(settings.sendWindowEnd);
  let t = at;
  for (let guard = 0; guard < 400; guard++) {
    const local = new TZDate(t.getTime(), timeZone);
    const day = format(local, 'yyyy-MM-dd');
    const midnight = new TZDate(local.getFullYear(), local.getMonth(), local.getDate(), timeZone);
    const nextMidnight = addDays(midnight, 1);
    const sent = day === count.day ? count.sentToday : 0;
    if (settings.dailyCap > 0 && sent >= settings.dailyCap) {
      t = new Date(nextMidnight.getTime());
      continue;
    }
    if (start === end) return t;
    const minutes = local.getHours() * 60 + local.getMinutes();
    const opening = new TZDate(
      local.getFullYear(),
      local.getMonth(),
      local.getDate(),
      Math.floor(start / 60),
      start % 60,
      timeZone,
    );
    if (start < end) {
      if (minutes < start) return new Date(opening.getTime());
      if (minutes >= end) {
        t = new Date(nextMidnight.getTime());
        continue;
      }
      return t;
    }
    // Across midnight (e.g. 22:00–06:00): open before `end` and from `start` on.
    if (minutes >= start || minutes < end) return t;
    return new Date(opening.getTime());
  }
  return t;
}

/** The local day (yyyy-MM-dd) of `at` in `timeZone`: the daily cap's unit. */
export function localDay(at: Date, timeZone: string = DASHBOARD_TIME_ZONE): string {
  return format(new TZDate(at.getTime(), timeZone), 'yyyy-MM-dd');
}

/**
 * The sends due now on a connection: the wait after each (`waitAfterSend`) and its run count, up to the
 * first non-zero wait, `limit` sends, or the daily cap left on `now`'s local day — so a step with
 * interval 0 sends a batch and one with an interval sends one. The list is never empty; entry i is
 * the wait after send i+1 (seconds) and the connection's run count after it. Pure.
 */
export function planSends(
  pace: DayCount & { sentInRun: number },
  settings: PaceSettings,
  now: Date,
  random: () => number,
  limit: number,
  timeZone: string = DASHBOARD_TIME_ZONE,
): { seconds: number; sentInRun: number }[] {
  const day = localDay(now, timeZone);
  const capLeft = settings.dailyCap > 0 ? settings.dailyCap - (day === pace.day ? pace.sentToday : 0) : limit;
  const plan: { seconds: number; sentInRun: number }[] = [];
  let sentInRun = pace.sentInRun;
  while (plan.length < Math.max(1, Math.min(limit, capLeft))) {
    sentInRun += 1;
    const wait = waitAfterSend(sentInRun, settings, random);
    if (wait.longer) sentInRun = 0;
    plan.push({ seconds: wait.seconds, sentInRun });
    if (wait.seconds > 0) break;
  }
  return plan;
}
