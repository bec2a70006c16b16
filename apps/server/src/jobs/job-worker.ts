import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';

/** What this process's workers did so far (tests and benchmarks read it). */
export interface JobQueueCounters {
  /** Claim statements run (each takes up to the free slots' worth of jobs). */
  claims: number;
  /** Jobs handed to a handler. */
  ran: number;
  /** Times an idle worker woke up because its safety poll interval ran out (not because of work). */
  timedPolls: number;
  /** Times a worker woke up because the timer armed at its next due job ran out. */
  dueWakes: number;
  /** Times a NOTIFY from the database (a job queued or freed, by any node) woke a worker or re-armed its timer. */
  notifiedWakes: number;
}

export interface Claimed {
  id: string;
  data: Record<string, unknown>;
  createdOn: number;
}

/** What one claim answered: the jobs taken, and the milliseconds until the next one not due yet. */
export interface ClaimResult {
  jobs: Claimed[];
  /** Null when no job of the queue waits for a later time (or the claim took its whole limit). */
  nextDueMs: number | null;
}

/**
 * One queue's worker loop in this process: claims while it has free slots; with free slots and
 * nothing claimable it sleeps until the next due job (a timer armed from the claim's answer, or from a
 * NOTIFY announcing a sooner one), a wake-up (enqueuer, finished job, NOTIFY) or, when idle, the
 * safety poll.
 */
export class Worker {
  inFlight = 0;
  stopped = false;
  #signalled = false;
  #wakeUp: (() => void) | null = null;
  /** When (Date.now() ms) the next job known to be not due yet becomes due, or null. */
  #dueAt: number | null = null;
  /** A sooner due time announced while the loop was not waiting (taken into the next wait). */
  #hintAt: number | null = null;
  /** Re-arms the armed wait's due timer (set only while waiting). */
  #rearm: ((at: number) => void) | null = null;
  #idleWaiters: (() => void)[] = [];
  readonly done: Promise<void>;
  readonly #running = new Set<Promise<void>>();

  constructor(
    readonly name: string,
    private readonly concurrency: number,
    private readonly pollMs: number,
    private readonly claim: (limit: number) => Promise<ClaimResult>,
    private readonly run: (job: Claimed) => Promise<void>,
    private readonly counters: JobQueueCounters,
    private readonly log: FastifyBaseLogger,
    /** Called with each timed poll of this kind's loop (counted per kind by the queue). */
    private readonly onTimedPoll: () => void = () => {},
  ) {
    this.done = this.#loop();
  }

  /** Makes the loop look for work now (or right after its current claim). */
  signal(): void {
    this.#signalled = true;
    this.#wakeUp?.();
  }

  /**
   * A job of this kind becomes due in `ms` (a NOTIFY): now (`ms` <= 0) wakes the loop; later arms its
   * timer sooner when that is sooner than the one armed. @returns whether it changed anything.
   */
  dueIn(ms: number): boolean {
    if (ms <= 0) {
      this.signal();
      return true;
    }
    const at = Date.now() + ms;
    if (this.#rearm) {
      if (this.#dueAt !== null && this.#dueAt <= at) return false;
      this.#rearm(at);
      return true;
    }
    if (this.#hintAt !== null && this.#hintAt <= at) return false;
    this.#hintAt = at;
    return true;
  }

  /** Resolves the next time the loop finds nothing to claim and nothing running. */
  idle(): Promise<void> {
    const promise = new Promise<void>((resolve) => this.#idleWaiters.push(resolve));
    this.signal();
    return promise;
  }

  /** Waits for the running jobs, up to `timeoutMs`. @returns whether they all ended. */
  async settle(timeoutMs: number): Promise<boolean> {
    const all = Promise.all(this.#running).then(() => true);
    return Promise.race([all, sleep(timeoutMs, false, { ref: false })]);
  }

  async #loop(): Promise<void> {
    while (!this.stopped) {
      this.#signalled = false;
      const free = this.concurrency - this.inFlight;
      // Only a claim that started after idle() was asked can answer it.
      const waiting = this.#idleWaiters.splice(0);
      let found = 0;
      if (free > 0) {
        // A job announced before this claim started is in its answer.
        const hint = this.#hintAt;
        this.#hintAt = null;
        try {
          const { jobs, nextDueMs } = await this.claim(free);
          this.counters.claims++;
          found = jobs.length;
          this.#dueAt = earliest(nextDueMs === null ? null : Date.now() + nextDueMs, hint);
          for (const job of jobs) this.#start(job);
        } catch (error) {
          this.log.error({ err: error, queue: this.name }, 'job claim failed');
          this.#hintAt = earliest(this.#hintAt, hint);
          this.#idleWaiters.unshift(...waiting);
          await this.#wait(true, false);
          continue;
        }
      }
      if (free > 0 && found === 0 && this.inFlight === 0) {
        for (const resolve of waiting) resolve();
      } else {
        this.#idleWaiters.unshift(...waiting);
      }
      if (found > 0 && this.inFlight < this.concurrency) continue;
      // Idle, or waiting for a later job, or every slot busy: a finished job, an enqueuer, a NOTIFY,
      // the due timer (with free slots) or the safety poll (idle) wakes it.
      await this.#wait(this.inFlight === 0, this.inFlight < this.concurrency);
    }
  }

  #start(job: Claimed): void {
    this.inFlight++;
    const running = this.run(job).finally(() => {
      this.inFlight--;
      this.#running.delete(running);
      this.signal();
    });
    this.#running.add(running);
  }

  /**
   * Sleeps until signalled; with `poll` also until the safety poll runs out; with `due` also until the
   * next due job's time (`#dueAt`, moved sooner by `dueIn` meanwhile).
   */
  async #wait(poll: boolean, due: boolean): Promise<void> {
    if (this.#signalled || this.stopped) return;
    const dueAt = due ? earliest(this.#dueAt, this.#hintAt) : null;
    this.#hintAt = null;
    let safety: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      this.#wakeUp = resolve;
      const arm = (at: number) => {
        clearTimeout(timer);
        this.#dueAt = at;
        timer = setTimeout(
          () => {
            this.counters.dueWakes++;
            resolve();
          },
          Math.max(1, at - Date.now()),
        );
      };
      if (due) {
        this.#rearm = arm;
        if (dueAt !== null) arm(dueAt);
      }
      if (poll) {
        safety = setTimeout(() => {
          this.counters.timedPolls++;
          this.onTimedPoll();
          resolve();
        }, this.pollMs);
      }
    });
    this.#wakeUp = null;
    this.#rearm = null;
    clearTimeout(timer);
    clearTimeout(safety);
  }
}

/** The earlier of two times (ms), either of which may be null. */
function earliest(a: number | null, b: number | null): number | null {
  if (a === null) return b;
  if (b === null) return a;
  return Math.min(a, b);
}
