import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DatabaseHandle, SqlExecutor, Tx } from '../db/client.js';
import { transactionExecutor } from '../db/client.js';
import {
  CLAIM_SQL,
  CLAIMED_BY,
  JOB_WAKE_EXISTS_SQL,
  JOB_WAKE_SQL,
  KEY_INDEX_SQL,
  retryConcurrentDdl,
} from './job-queue-sql.js';
import { type Claimed, type ClaimResult, type JobQueueCounters, Worker } from './job-worker.js';

export { JOB_WAKE_CHANNEL, retryConcurrentDdl } from './job-queue-sql.js';
export type { JobQueueCounters } from './job-worker.js';

/** Runs one job; a throw fails the job and pg-boss retries it (up to the queue's retryLimit). */
export type JobHandler<T> = (data: T) => Promise<void>;

interface Definition {
  handler: JobHandler<never>;
  retryLimit: number;
  /** Cron expression (minute resolution) for recurring jobs. */
  cron?: string;
  /** Jobs of one key run one at a time, in the order queued; keys run in parallel. */
  keyOf?: (data: never) => string | undefined;
  /** How many jobs of this kind one process runs at once. */
  concurrency: number;
}

export interface JobQueueOptions {
  log: FastifyBaseLogger;
  /**
   * Run workers and cron schedules in this process (servers). Off in tests, which call `drain()` to
   * run what was queued, deterministically.
   */
  workers: boolean;
  /**
   * This node's stable id (config `nodeId`): every claimed job records it, and at start the jobs a
   * previous run of the same node left active are handed back at once (see `start`).
   */
  nodeId: string;
  /**
   * The safety poll: how long an idle worker waits at most before looking again, in seconds (default
   * 30), for a wake-up that was lost. An idle worker sleeps until the next due job of its kind (a timer
   * armed from the claim's answer); a worker that found work looks again at once; enqueuers, finished
   * jobs and, through `wakes`, other nodes' jobs wake it sooner.
   */
  pollingIntervalSeconds?: number;
  /**
   * The node's NOTIFY signal on JOB_WAKE_CHANNEL (a NotifySignal on its NotifyListener): database
   * triggers announce every job queued and every keyed job that ended, so a job queued or freed on
   * any node wakes (or re-arms) this node's worker of its kind. Without it only local wake-ups, the
   * due timer and the safety poll wake workers.
   */
  wakes?: { on(fn: (payload: string) => void): void };
  /** Default of `define(..., { concurrency })` (default 8). */
  concurrency?: number;
}

/** Where a job's row is written: inside a transaction (commits with it) or on its own. */
export interface SendOptions {
  tx?: Tx;
  /** Delay before the job may run, in seconds. */
  startAfterSeconds?: number;
}

/**
 * The durable job queue (DESIGN.md "jobs"): pg-boss 10 on the application's own database, through
 * its raw executor, so it runs the same on PGlite (one backend, serialised) and on Postgres. Jobs can
 * be written in the same transaction as the data they concern; handlers are defined before `start()`.
 * pg-boss stores, retries, expires, archives and schedules jobs; this class claims and runs them
 * (per-key order, several at once, no pause between claims while work is due; docs/operations.md
 * "Job queue").
 */
export class JobQueue {
  readonly #boss: PgBoss;
  readonly #executor: SqlExecutor;
  readonly #definitions = new Map<string, Definition>();
  readonly #workers = new Map<string, Worker>();
  readonly #counters: JobQueueCounters = { claims: 0, ran: 0, timedPolls: 0, dueWakes: 0, notifiedWakes: 0 };
  /** Timed polls per kind of job (`timedPollsOf`). */
  readonly #timedPolls = new Map<string, number>();
  #started: Promise<void> | null = null;
  #working: Promise<void> | null = null;
  #stopped = false;

  constructor(
    database: DatabaseHandle,
    private readonly options: JobQueueOptions,
  ) {
    this.#executor = database.executor;
    this.#boss = new PgBoss({
      db: database.executor,
      schema: 'pgboss',
      supervise: options.workers,
      schedule: options.workers,
      migrate: true,
    } as PgBoss.ConstructorOptions);
    this.#boss.on('error', (error) => options.log.error({ err: error }, 'job queue'));
    options.wakes?.on((payload) => this.#notified(payload));
  }

  /** A NOTIFY of JOB_WAKE_SQL: wakes or re-arms this node's worker of the job's kind (not its own ends). */
  #notified(payload: string): void {
    const [name = '', ms = '0', node = ''] = payload.split('|');
    if (this.#stopped || node === this.options.nodeId) return;
    const worker = this.#workers.get(name);
    if (worker?.dueIn(Number(ms) || 0)) this.#counters.notifiedWakes++;
  }

  /**
   * Declares a job kind and its handler. `cron` makes it recurring where workers run; `key` orders
   * jobs (one key's jobs run one at a time, oldest first, e.g. per ticket); `concurrency` is how
   * many jobs of this kind a process runs at once (default the queue's, 8).
   */
  define<T>(
    name: string,
    handler: JobHandler<T>,
    options: {
      retryLimit?: number;
      cron?: string;
      key?: (data: T) => string | undefined;
      concurrency?: number;
    } = {},
  ): void {
    if (this.#started) throw new Error(`job ${name} defined after start`);
    this.#definitions.set(name, {
      handler: handler as JobHandler<never>,
      retryLimit: options.retryLimit ?? 3,
      cron: options.cron,
      keyOf: options.key as ((data: never) => string | undefined) | undefined,
      concurrency: Math.max(1, options.concurrency ?? this.options.concurrency ?? 8),
    });
  }

  /**
   * Installs or migrates the pg-boss schema, creates the queues, hands back the jobs a previous run
   * of this node left active (`reclaim`) and, with workers, starts them.
   */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    await this.#boss.start();
    // Nodes starting together create the same queues (partitions of pgboss.job) and index at once:
    // Postgres may abort one of them (a deadlock, or the same index created twice); every step is
    // idempotent, so it is tried again.
    for (const [name, definition] of this.#definitions) {
      await retryConcurrentDdl(() =>
        this.#boss.createQueue(name, { name, retryLimit: definition.retryLimit, retryDelay: 5 }),
      );
    }
    await retryConcurrentDdl(() => this.#executor.executeSql(KEY_INDEX_SQL));
    await retryConcurrentDdl(async () => {
      const { rows } = await this.#executor.executeSql(JOB_WAKE_EXISTS_SQL);
      if (rows.length === 0) await this.#executor.executeSql(JOB_WAKE_SQL);
    });
    await this.reclaim();
    if (this.options.workers) await this.#startWorkers();
  }

  /**
   * The jobs this node's previous process left active (killed mid-job) fail now and, within their
   * retry limit, are due again at once, instead of waiting for pg-boss's expiry (15 minutes). Run at
   * start, before this process claims anything. @returns how many jobs were handed back.
   */
  async reclaim(): Promise<number> {
    const { rows } = await this.#executor.executeSql(
      `select id, name from pgboss.job where state = 'active' and data->>'${CLAIMED_BY}' = $1`,
      [this.options.nodeId],
    );
    const byName = new Map<string, string[]>();
    for (const row of rows) {
      const name = String(row.name);
      byName.set(name, [...(byName.get(name) ?? []), String(row.id)]);
    }
    for (const [name, ids] of byName) {
      const message = `node ${this.options.nodeId} restarted while running it`;
      for (const id of ids) await this.#boss.fail(name, id, { message });
      await this.#executor.executeSql(
        // A second back: the claim wants start_after < now(), and clocks may tick in milliseconds.
        `update pgboss.job set start_after = now() - interval '1 second'
         where name = $1 and id = any($2::uuid[]) and state = 'retry'`,
        [name, ids],
      );
    }
    if (rows.length) this.options.log.warn({ jobs: rows.length }, 'jobs of the previous run handed back');
    return rows.length;
  }

  /** Starts this process's workers and cron schedules (what `start()` does when `workers` is on). */
  async work(): Promise<void> {
    await this.start();
    await this.#startWorkers();
  }

  #startWorkers(): Promise<void> {
    this.#working ??= this.#spawnWorkers();
    return this.#working;
  }

  async #spawnWorkers(): Promise<void> {
    const pollMs = Math.max(100, (this.options.pollingIntervalSeconds ?? 30) * 1000);
    // The cron schedules first, the workers last with nothing awaited after them: a handler that
    // queues a job inside its transaction awaits `start()`, so were `start()` still waiting here for
    // a connection, handlers holding every connection of the pool would wait for it forever.
    for (const [name, definition] of this.#definitions) {
      if (definition.cron) await this.#boss.schedule(name, definition.cron);
    }
    for (const [name, definition] of this.#definitions) {
      const worker = new Worker(
        name,
        definition.concurrency,
        pollMs,
        (limit) => this.#claim(name, limit),
        (job) => this.#run(name, definition, job).catch(() => undefined),
        this.#counters,
        this.options.log,
        () => this.#timedPolls.set(name, (this.#timedPolls.get(name) ?? 0) + 1),
      );
      this.#workers.set(name, worker);
    }
  }

  /**
   * Claims up to `limit` due jobs of `name` for this node (CLAIM_SQL), oldest first, and tells how
   * many milliseconds remain until the next job of `name` that is not due yet (null: none known).
   */
  async #claim(name: string, limit: number): Promise<ClaimResult> {
    const { rows } = await this.#executor.executeSql(CLAIM_SQL, [name, limit, this.options.nodeId]);
    const last = rows.at(-1);
    const nextDue = last && last.id === null ? last.next_due_ms : null;
    const jobs = rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: String(row.id),
        data: (typeof row.data === 'string' ? JSON.parse(row.data) : row.data) as Record<string, unknown>,
        createdOn: new Date(row.created_on as string).getTime(),
      }))
      .sort((a, b) => a.createdOn - b.createdOn || a.id.localeCompare(b.id));
    return { jobs, nextDueMs: nextDue === null || nextDue === undefined ? null : Number(nextDue) };
  }

  /** Runs a claimed job and completes it, or fails it (pg-boss retries) and rethrows. */
  async #run(name: string, definition: Definition, job: Claimed): Promise<void> {
    const { [CLAIMED_BY]: _owner, ...data } = job.data;
    this.#counters.ran++;
    try {
      await definition.handler(data as never);
    } catch (error) {
      this.options.log.warn({ err: error, queue: name, jobId: job.id }, 'job failed');
      await this.#boss.fail(name, job.id, { message: String(error) });
      throw error;
    }
    await this.#boss.complete(name, job.id);
  }

  /**
   * Queues a job. With `tx` the job row is part of that transaction; call `wake(name)` after the
   * commit so a local worker picks it up at once. The definition's `key` is stored in pg-boss's
   * `singleton_key` column (the queues use the standard policy, so it only orders). @returns the job id.
   */
  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    const definition = this.#definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    await this.start();
    const id = await this.#boss.send(name, data, {
      singletonKey: definition.keyOf?.(data as never),
      startAfter: options.startAfterSeconds,
      ...(options.tx ? { db: transactionExecutor(options.tx) } : {}),
    } as PgBoss.SendOptions);
    if (!options.tx) this.wake(name);
    return id;
  }

  /**
   * Queues several jobs of one kind with one statement, each as `send` would (the definition's key,
   * the queue's retry settings). With `tx` the rows are part of that transaction; call `wake(name)`
   * after the commit. Nothing is sent for an empty list.
   */
  async sendMany<T extends object>(name: string, items: T[], options: { tx?: Tx } = {}): Promise<void> {
    if (items.length === 0) return;
    const definition = this.#definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    await this.start();
    await this.#boss.insert(
      items.map((data) => ({ name, data, singletonKey: definition.keyOf?.(data as never) })),
      options.tx ? { db: transactionExecutor(options.tx) } : {},
    );
    if (!options.tx) this.wake(name);
  }

  /**
   * Cancels the jobs of `name` with `key` that have not started yet (queued or waiting to retry):
   * they move to pg-boss's `cancelled` state and never run (a reschedule queues a new one). A job
   * already running is not stopped, so handlers still check their record. @returns how many.
   */
  async cancelKey(name: string, key: string, options: { tx?: Tx } = {}): Promise<number> {
    await this.start();
    const executor = options.tx ? transactionExecutor(options.tx) : this.#executor;
    const { rows } = await executor.executeSql(
      `update pgboss.job set state = 'cancelled', completed_on = now()
       where name = $1 and singleton_key = $2 and state < 'active' returning id`,
      [name, key],
    );
    return rows.length;
  }

  /** Asks this process's worker of `name` to look for jobs now (no-op without workers). */
  wake(name: string): void {
    if (!this.#stopped) this.#workers.get(name)?.signal();
  }

  /**
   * Resolves the next time every worker of this process has found nothing due and nothing running
   * (tests and benchmarks; resolves at once without workers).
   */
  async idle(): Promise<void> {
    await Promise.all([...this.#workers.values()].map((w) => w.idle()));
  }

  /** Counters of this process's workers and `drain()` since start. */
  get counters(): Readonly<JobQueueCounters> {
    return { ...this.#counters };
  }

  /**
   * Times the worker loop of `kind` woke up because its polling interval ran out (the share of
   * `counters.timedPolls` of that kind; idle kinds poll every interval whatever the others do).
   */
  timedPollsOf(kind: string): number {
    return this.#timedPolls.get(kind) ?? 0;
  }

  /** How many kinds of job are defined (each has its own worker loop, which claims once at start). */
  get kinds(): number {
    return this.#definitions.size;
  }

  /**
   * Runs every queued job that is due, in this process, until none are left (jobs may queue more).
   * Each pass claims like the workers (per-key order) and runs its jobs together. For tests and
   * tools; a failing handler fails its job and the first error is rethrown after the pass.
   * @returns how many jobs ran.
   */
  async drain(): Promise<number> {
    await this.start();
    let ran = 0;
    for (let pass = 0; pass < 1000; pass++) {
      let found = 0;
      for (const [name, definition] of this.#definitions) {
        const { jobs } = await this.#claim(name, 20);
        this.#counters.claims++;
        found += jobs.length;
        const results = await Promise.allSettled(jobs.map((job) => this.#run(name, definition, job)));
        const failure = results.find((r) => r.status === 'rejected');
        if (failure) throw (failure as PromiseRejectedResult).reason;
      }
      ran += found;
      if (found === 0) return ran;
    }
    throw new Error('job queue did not drain');
  }

  /**
   * Stops workers and schedules, waiting for running jobs (up to `timeoutMs`). Jobs still running
   * then stay active under this node's id and are handed back when it starts again.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.#stopped || !this.#started) return;
    this.#stopped = true;
    await this.#started.catch(() => undefined);
    await this.#working?.catch(() => undefined);
    for (const worker of this.#workers.values()) {
      worker.stopped = true;
      worker.signal();
    }
    await Promise.all([...this.#workers.values()].map((w) => w.done));
    const settled = await Promise.all([...this.#workers.values()].map((w) => w.settle(timeoutMs)));
    if (settled.includes(false)) this.options.log.warn('jobs still running at shutdown');
    await this.#boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  }
}
