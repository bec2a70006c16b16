/** The dashboard benchmark's command line (see run.ts). */
import { benchArgs, databaseServer, intOption } from '../support/options.js';

export interface Options {
  tickets: number;
  requests: number;
  concurrency: number;
  timeoutSeconds: number;
  write: boolean;
  /** Keep the seeded database at the end (for EXPLAIN work by hand) instead of dropping it. */
  keep: boolean;
  serverUrl: string;
}

/** Reads the options from the command line (prints the usage and exits on --help); throws on a bad value. */
export function readOptions(): Options {
  const values = benchArgs({ tickets: '100000', requests: '200', concurrency: '4', timeout: '1200' }, [
    'no-write',
    'keep-database',
    'help',
  ]);
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/dashboard/run.ts [--tickets N] [--requests R] [--concurrency C]\n' +
        '  [--timeout seconds] [--no-write] [--keep-database]',
    );
    process.exit(0);
  }
  return {
    tickets: intOption('tickets', values.tickets, 1000, 5_000_000),
    requests: intOption('requests', values.requests, 20, 20_000),
    concurrency: intOption('concurrency', values.concurrency, 2, 64),
    timeoutSeconds: intOption('timeout', values.timeout, 30, 7200),
    write: !values['no-write'],
    keep: values['keep-database'],
    serverUrl: databaseServer(),
  };
}
