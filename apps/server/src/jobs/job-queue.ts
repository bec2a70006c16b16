import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { DatabaseHandle, Tx } from '../db/client.js';
import { transactionExecutor } from '../db/client.js';

/** Runs one job; a throw fails the job and pg-boss retries it (up to the queue's retryLimit). */
export type JobHandler<T> = (data: T) => Promise<void>;

interface Definition {
  handler: JobHandler<never>;
  retryLimit: number;
  /** Cron expression (minute resolution) for recurring jobs. */
  cron?: string;
}

export interface JobQueueOptions {
  log: FastifyBaseLogger;
  /**
   * Run workers and cron schedules in this process (servers). Off in tests, which call `drain()` to
   * run what was queued, deterministically.
   */
  workers: boolean;
  /** How often an idle worker polls, in seconds (pg-boss minimum 0.5). Enqueuers also wake it. */
  pollingIntervalSeconds?: number;
}

/** Where a job's row is written: inside a transaction (commits with it) or on its own. */
export interface SendOptions {
  tx?: Tx;
  /** At most one queued job per key (pg-boss singletonKey). */
  singletonKey?: string;
  /** Delay before the job may run, in seconds. */
  startAfterSeconds?: number;
}

/**
 * The durable job queue (DESIGN.md "jobs"): pg-boss 10 on the application's own database, through
 * its raw executor, so it runs the same on PGlite (one backend, serialised) and on Postgres. Jobs can
 * be written in the same transaction as the data they concern; handlers are defined before `start()`.
 */
export class JobQueue {
  readonly #boss: PgBoss;
  readonly #definitions = new Map<string, Definition>();
  readonly #workerIds = new Map<string, string>();
  #started: Promise<void> | null = null;
  #stopped = false;

  constructor(
    database: DatabaseHandle,
    private readonly options: JobQueueOptions,
  ) {
    this.#boss = new PgBoss({
      db: database.executor,
      schema: 'pgboss',
      supervise: options.workers,
      schedule: options.workers,
      migrate: true,
    } as PgBoss.ConstructorOptions);
    this.#boss.on('error', (error) => options.log.error({ err: error }, 'job queue'));
  }

  /** Declares a job kind and its handler; `cron` makes it recurring where workers run. */
  define<T>(
    name: string,
    handler: JobHandler<T>,
    options: { retryLimit?: number; cron?: string } = {},
  ): void {
    if (this.#started) throw new Error(`job ${name} defined after start`);
    this.#definitions.set(name, {
      handler: handler as JobHandler<never>,
      retryLimit: options.retryLimit ?? 3,
      cron: options.cron,
    });
  }

  /** Installs or migrates the pg-boss schema, creates the queues and, with workers, starts them. */
  start(): Promise<void> {
    this.#started ??= this.#start();
    return this.#started;
  }

  async #start(): Promise<void> {
    await this.#boss.start();
    for (const [name, definition] of this.#definitions) {
      await this.#boss.createQueue(name, { name, retryLimit: definition.retryLimit, retryDelay: 5 });
    }
    if (!this.options.workers) return;
    for (const [name, definition] of this.#definitions) {
      const id = await this.#boss.work<unknown>(
        name,
        { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 1, batchSize: 1 },
        async (jobs) => {
          for (const job of jobs) await definition.handler(job.data as never);
        },
      );
      this.#workerIds.set(name, id);
      if (definition.cron) await this.#boss.schedule(name, definition.cron);
    }
  }

  /**
   * Queues a job. With `tx` the job row is part of that transaction; call `wake(name)` after the
   * commit so a local worker picks it up at once. @returns the job id (null when a singleton exists).
   */
  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (!this.#definitions.has(name)) throw new Error(`unknown job ${name}`);
    await this.start();
    const id = await this.#boss.send(name, data, {
      singletonKey: options.singletonKey,
      startAfter: options.startAfterSeconds,
      ...(options.tx ? { db: transactionExecutor(options.tx) } : {}),
    } as PgBoss.SendOptions);
    if (!options.tx) this.wake(name);
    return id;
  }

  /** Asks this process's worker of `name` to poll now (no-op without workers). */
  wake(name: string): void {
    const id = this.#workerIds.get(name);
    if (id && !this.#stopped) this.#boss.notifyWorker(id);
  }

  /**
   * Runs every queued job that is due, in this process, until none are left (jobs may queue more).
   * For tests and tools; a failing handler fails its job and the error is rethrown.
   * @returns how many jobs ran.
   */
  async drain(): Promise<number> {
    await this.start();
    let ran = 0;
    for (let pass = 0; pass < 1000; pass++) {
      let found = 0;
      for (const [name, definition] of this.#definitions) {
        const jobs = await this.#boss.fetch<unknown>(name, { batchSize: 20 });
        for (const job of jobs ?? []) {
          found++;
          try {
            await definition.handler(job.data as never);
            await this.#boss.complete(name, job.id);
          } catch (error) {
            await this.#boss.fail(name, job.id, { message: String(error) });
            throw error;
          }
        }
      }
      ran += found;
      if (found === 0) return ran;
    }
    throw new Error('job queue did not drain');
  }

  /** Stops workers and schedules, waiting for running jobs (up to `timeoutMs`). */
  async stop(timeoutMs = 10_000): Promise<void> {
    if (this.#stopped || !this.#started) return;
    this.#stopped = true;
    await this.#started.catch(() => undefined);
    await this.#boss.stop({ graceful: true, wait: true, close: false, timeout: timeoutMs });
  }
}
