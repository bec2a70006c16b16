/**
 * Pieces shared by the HTTP latency benchmarks (bench/api, bench/dashboard): warm-up, the p99 mark,
 * and the report's lines about the machine, the data and the load.
 */
import path from 'node:path';
import type pg from 'pg';
import { type Facts, machineFacts, PLANNER_SETTINGS } from './facts.js';
import { f1, type Load, startLoad } from './load.js';
import { assertLoopback, guardRun } from './options.js';
import { type Plan, slowestResults } from './plans.js';
import { installQueryRecorder } from './query-recorder.js';
import { BENCHMARKS_DOC } from './report.js';
import type { Stats } from './stats.js';
import { createTeardown } from './teardown.js';

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
 * Warm-up, round robin (`perScenario` requests of each) and then `perScenario` × `concurrency` requests of each
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
  for (const scenario of scenarios) await client.run(scenario, perScenario * concurrency, concurrency);
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

/** Everything an HTTP benchmark's report section is made of. */
export interface MeasuredRun<O, R, P> {
  options: O;
  env: Facts;
  /** The seeded data, described in one line. */
  volumes: string;
  load: Load;
  results: R[];
  plans: P[];
}

/** EXPLAIN'd scenarios: the slowest (sequential p99), all over the target within these bounds. */
export const EXPLAIN_AT_LEAST = 2;
export const EXPLAIN_AT_MOST = 4;

/** What a benchmark's report module provides (see `measureAndExplain`, `reportRun`). */
export interface HttpBenchReport<O, R, P> {
  /** Warm-up requests of every scenario, and the p99 target in ms. */
  WARMUP_PER_SCENARIO: number;
  TARGET_P99_MS: number;
  /** What a statement is called in the printed plan headers ('query', 'statement'). */
  STATEMENT: string;
  HEADING: string;
  /** The section's text. */
  section(run: MeasuredRun<O, R, P>): string;
  /** The markdown tables printed at the end. */
  tables(run: MeasuredRun<O, R, P>): string[][];
  /** The load described in one line. */
  runLoadText(run: MeasuredRun<O, R, P>): string;
  /** Writes the section's text into docs/benchmarks.md. */
  writeDoc(text: string): void;
}

/** What `measureAndExplain` needs of a bench's HTTP client. */
export interface BenchClient<S, R, P> extends ScenarioClient<S> {
  /** Measures every scenario in turn. */
  measureAll(scenarios: S[]): Promise<R[]>;
  /** The plans of one measured scenario's statements. */
  explain(result: R): Promise<P[]>;
}

/**
 * Warms up (with `concurrency` in flight at the end), measures every scenario under the load probe
 * (`ref`'s database; the server's CPU from `serverCpuMs`, default this process), then EXPLAINs the
 * slowest and prints each plan. Resolves with the results, the load and the plans.
 */
export async function measureAndExplain<
  S,
  R extends { sequential: { latency: { p99: number } } },
  P extends Plan,
>(
  report: Pick<HttpBenchReport<unknown, R, P>, 'WARMUP_PER_SCENARIO' | 'TARGET_P99_MS' | 'STATEMENT'>,
  concurrency: number,
  client: BenchClient<S, R, P>,
  scenarios: S[],
  ref: pg.Pool,
  serverCpuMs?: () => number,
): Promise<{ results: R[]; load: Load; plans: P[] }> {
  await warmUp(client, scenarios, report.WARMUP_PER_SCENARIO, concurrency);
  const endLoad = await startLoad(ref, serverCpuMs);
  const results = await client.measureAll(scenarios);
  const load = await endLoad();
  const plans: P[] = [];
  for (const r of slowestResults(results, report.TARGET_P99_MS, EXPLAIN_AT_LEAST, EXPLAIN_AT_MOST)) {
    for (const plan of await client.explain(r)) {
      plans.push(plan);
      console.log(
        `\n--- EXPLAIN (ANALYZE, BUFFERS): ${plan.scenario}, ${plan.kind} ${report.STATEMENT} ---\n${plan.text}`,
      );
    }
  }
  return { results, load, plans };
}

/**
 * Reads the machine facts, prints the bench's tables and summary lines and, when `options.write`,
 * writes its section into docs/benchmarks.md (`report`: the bench's report module).
 */
export async function reportRun<O extends { write: boolean }, R, P>(
  ref: pg.Pool,
  parts: Omit<MeasuredRun<O, R, P>, 'env'>,
  report: HttpBenchReport<O, R, P>,
): Promise<void> {
  const run = { ...parts, env: await machineFacts(ref, PLANNER_SETTINGS) };
  const text = report.section(run);
  printSummary(report.tables(run), run.env, run.volumes, report.runLoadText(run));
  if (run.options.write) {
    report.writeDoc(text);
    console.log(
      `wrote the '${report.HEADING.slice(3)}' section of ${path.relative(process.cwd(), BENCHMARKS_DOC)}`,
    );
  }
}

/**
 * Starts an HTTP benchmark process: the app's queries are recorded (see `installQueryRecorder`) and
 * every resource registers its release with the returned teardown (see `createTeardown`).
 */
export function startHttpBench(label: string): ReturnType<typeof createTeardown> {
  installQueryRecorder();
  return createTeardown(label);
}

/** Guards the run (see `guardRun`) and checks that the database server is on loopback. */
export function guardServerRun(
  options: { timeoutSeconds: number; serverUrl: string },
  abort: (reason: unknown) => Promise<never>,
): void {
  guardRun(options.timeoutSeconds, abort);
  assertLoopback(options.serverUrl);
}
