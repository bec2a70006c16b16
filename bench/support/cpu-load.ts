/**
 * Other load for a benchmark that is to be measured on a busy machine: `--threads` threads each keep a
 * core busy for `--duty` of every 100 ms (computing hashes) and sleep for the rest, until the process
 * is stopped (or `--seconds` pass). Run it beside a benchmark and record the machine's load the
 * benchmark reports:
 *
 *   npx tsx bench/support/cpu-load.ts [--threads 1] [--duty 0.5] [--seconds 0]
 */
import { Worker } from 'node:worker_threads';
import { benchArgs } from './options.js';

/** Length of one busy-then-idle period, ms. */
const PERIOD_MS = 100;

/** One thread's loop (plain JavaScript, run as an eval worker): busy for duty × PERIOD_MS, then idle. */
const BURN = `
const crypto = require('node:crypto');
const { workerData } = require('node:worker_threads');
const block = Buffer.alloc(4096, 7);
function period() {
  const start = performance.now();
  while (performance.now() - start < workerData.duty * ${PERIOD_MS}) crypto.createHash('sha256').update(block).digest();
  setTimeout(period, Math.max(0, ${PERIOD_MS} - (performance.now() - start)));
}
period();
`;

const values = benchArgs({ threads: '1', duty: '0.5', seconds: '0' }, []);
const threads = Number(values.threads);
const duty = Number(values.duty);
const seconds = Number(values.seconds);
if (!(Number.isInteger(threads) && threads > 0) || !(duty > 0 && duty <= 1) || !(seconds >= 0))
  throw new Error('--threads must be a positive integer, --duty in (0, 1], --seconds ≥ 0');
for (let i = 0; i < threads; i++) new Worker(BURN, { eval: true, workerData: { duty } });
console.log(`cpu-load: ${threads} thread(s) busy ${Math.round(duty * 100)} % of each ${PERIOD_MS} ms`);
if (seconds > 0) setTimeout(() => process.exit(0), seconds * 1000);
