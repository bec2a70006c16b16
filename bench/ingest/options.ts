/** The ingest benchmark's command line (see run.ts). */
import { benchArgs, databaseServer } from '../support/options.js';

/** The run's parameters. */
export interface Params {
  customers: number;
  messages: number;
  agents: number;
  concurrency: number[];
  timeoutSeconds: number;
  write: boolean;
  serverUrl: string;
}

/** `value` as a positive integer; throws otherwise. */
function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got '${value}'`);
  return n;
}

/** Reads the parameters from the command line (prints the usage and exits on --help); throws on a bad value. */
export function parseParams(): Params {
  const values = benchArgs(
    { customers: '200', messages: '10', agents: '5', concurrency: '8,16,32,64', timeout: '300' },
    ['no-write', 'help'],
  );
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/ingest/run.ts [--customers N] [--messages M] [--agents A]\n' +
        '  [--concurrency C[,C...]] [--timeout seconds] [--no-write]',
    );
    process.exit(0);
  }
  const params: Params = {
    customers: positive('customers', values.customers),
    messages: positive('messages', values.messages),
    agents: positive('agents', values.agents),
    concurrency: values.concurrency.split(',').map((c) => positive('concurrency', c.trim())),
    timeoutSeconds: positive('timeout', values.timeout),
    write: !values['no-write'],
    serverUrl: databaseServer(),
  };
  // Bounded: the run must fit its hard timeout on a small machine.
  if (params.customers * params.messages > 200_000)
    throw new Error('customers × messages is capped at 200000');
  if (params.agents > 200) throw new Error('--agents is capped at 200');
  if (params.concurrency.length > 8 || params.concurrency.some((c) => c > 1024)) {
    throw new Error('--concurrency takes at most 8 values of at most 1024');
  }
  return params;
}
