/**
 * Pieces shared by the HTTP latency benchmarks (bench/api, bench/dashboard): warm-up, the p99 mark,
 * and the report's lines about the machine, the data and the load.
 */
import type { Facts } from './facts.js';
import { f1 } from './load.js';
import type { Stats } from './stats.js';

/** Latency and throughput of one run of a scenario. */
export interface RunResult {
  latency: Stats;
  perSecond: number;
}

/** What the warm-up needs of a bench's HTTP client. */
export interface ScenarioClient<S> {
  /** One request. */
  get(scenario: S): Promise<unknown>;
  /** `requests` requests with `inFlight` at a time. */
  run(scenario: S, requests: number, inFlight: number): Promise<unknown>;
}

/**
 * Warm-up, round robin (`perScenario` requests of each) and then `concurrency` × 2 requests of each
 * with `concurrency` in flight: JIT of the server code, pool connections, caches.
 */
export async function warmUp<S>(
  client: ScenarioClient<S>,
  scenarios: S[],
  perScenario: number,
  concurrency: number,
): Promise<void> {
  for (let i = 0; i < perScenario; i++) {
    for (const scenario of scenarios) await client.get(scenario);
  }
  for (const scenario of scenarios) await client.run(scenario, concurrency * 2, concurrency);
}

/** A p99 in ms with one decimal, in bold when at or over `targetMs`. */
export const markP99 = (p99: number, targetMs: number): string =>
  p99 < targetMs ? f1(p99) : `**${f1(p99)}**`;

/** The report's 'Last run', 'Postgres settings' and 'Data' lines. */
export function factsLines(env: Facts, volumes: string): string[] {
  return [
    `Last run: ${env.date}; \`nproc\` ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB memory, Node ${env.node}; ` +
      `${env.postgres}.`,
    `Postgres settings as found (not changed): ${env.settings.map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`,
    `Data: ${volumes}.`,
  ];
}

/** The report's 'Load during the measurements' line (`text`: the load described). */
export const loadLine = (text: string, other: number): string =>
  `Load during the measurements: ${text}.` +
  (other > 0.1
    ? ' The machine was shared with other work, so these figures are worse than on an idle machine.'
    : '');

/** Prints the tables and the machine, data and load lines at the end of a run. */
export function printSummary(tables: string[][], env: Facts, volumes: string, load: string): void {
  for (const table of tables) {
    console.log('');
    console.log(table.join('\n'));
  }
  console.log('');
  console.log(
    `machine: nproc ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB, Node ${env.node}; ${env.postgres}; ` +
      env.settings.map(([k, v]) => `${k}=${v}`).join(' '),
  );
  console.log(`data: ${volumes}`);
  console.log(`load: ${load}`);
}
