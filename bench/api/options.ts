/** The tickets API benchmark's command line (see run.ts). */
import { benchArgs, databaseServer, intOption } from '../support/options.js';

export interface Options {
  tickets: number;
  messages: number;
  requests: number;
  concurrency: number;
  timeoutSeconds: number;
  write: boolean;
  serverUrl: string;
  /** Only the scenarios whose name contains one of these (comma-separated); all when empty. */
  only: string[];
  /** The `accept-encoding` header of every request ('' sends `identity`: no compression). */
  encoding: string;
  /**
   * Server processes: 1 runs the app in this process; more start `apps/server/src/main.ts` with
   * WORKERS set (cluster.ts) on the same database and Redis (BENCH_REDIS_URL).
   */
  workers: number;
  redisUrl: string;
}

/**
 * Named data sets (`--size`): the usual 10,000 tickets, and 100,000 tickets, where the ticket list's
 * counts and filters show whether they grow with the company. The large size keeps 200,000 messages
 * (2 per ticket, not 20): the list does not read messages, and seeding 2,000,000 takes too long on a
 * shared 2-core machine. `--tickets` and `--messages` override either.
 */
export const SIZES = {
  '10k': { tickets: 10_000, messages: 200_000 },
  '100k': { tickets: 100_000, messages: 200_000 },
} as const;

/** Reads the options from the command line (prints the usage and exits on --help); throws on a bad value. */
export function readOptions(): Options {
  const values = benchArgs(
    {
      size: '10k',
      tickets: '',
      messages: '',
      requests: '300',
      concurrency: '10',
      timeout: '900',
      only: '',
      encoding: 'gzip, deflate, br',
      workers: '1',
    },
    ['no-write', 'help'],
  );
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/api/run.ts [--size 10k|100k] [--tickets N] [--messages M] [--requests R]\n' +
        '  [--concurrency C] [--timeout seconds] [--no-write]\n' +
        "  [--only 'name part,…'] [--encoding 'gzip, deflate, br' | identity] [--workers N]",
    );
    process.exit(0);
  }
  if (!(values.size in SIZES)) throw new Error(`--size must be one of ${Object.keys(SIZES).join(', ')}`);
  const size = SIZES[values.size as keyof typeof SIZES];
  return {
    tickets: intOption('tickets', values.tickets || String(size.tickets), 100, 500_000),
    messages: intOption('messages', values.messages || String(size.messages), 0, 5_000_000),
    requests: intOption('requests', values.requests, 20, 20_000),
    concurrency: intOption('concurrency', values.concurrency, 2, 64),
    timeoutSeconds: intOption('timeout', values.timeout, 30, 7200),
    write: !values['no-write'] && !values.only,
    only: values.only ? values.only.split(',').map((part) => part.trim()) : [],
    encoding: values.encoding,
    workers: intOption('workers', values.workers, 1, 16),
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    serverUrl: databaseServer(),
  };
}
