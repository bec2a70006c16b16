/**
 * Pieces shared by the HTTP latency benchmarks (bench/api, bench/dashboard): warm-up, the p99 mark,
 * and the report's lines about the machine, the data and the load.
 */
import path from 'node:path';
import type pg from 'pg';
import { type Facts, machineFacts, PLANNER_SETTINGS } from './facts.js';
import { f1, type Load, startLoad } from './load.js';
import { type Plan, slowestResults } from './plans.js';
import { BENCHMARKS_DOC } from './report.js';
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

/** A benchmark's fixed measuring settings (see `measureAndExplain`). */
export interface MeasureSettings {
  warmupPerScenario: number;
  /** p99 target and how many scenarios to EXPLAIN (see `slowestResults`). */
  targetMs: number;
  explainAtLeast: number;
  explainAtMost: number;
  /** What a statement is called in the printed plan headers ('query', 'statement'). */
  noun: string;
}

/** One run's scenarios and how to measure and explain them (see `measureAndExplain`). */
export interface MeasureRun<S, R, P> {
  client: ScenarioClient<S>;
  scenarios: S[];
  /** The database the load probe samples, and the server's CPU ms so far (default: this process). */
  ref: pg.Pool;
  serverCpuMs?: () => number;
  measure: () => Promise<R[]>;
  /** The plans of one scenario's statements. */
  explain: (result: R) => Promise<P[]>;
}

/**
 * Warms up (with `concurrency` in flight at the end), measures every scenario under the load probe,
 * then EXPLAINs the slowest and prints each plan. Resolves with the results, the load and the plans.
 */
export async function measureAndExplain<
  S,
  R extends { sequential: { latency: { p99: number } } },
  P extends Plan,
>(
  settings: MeasureSettings,
  concurrency: number,
  m: MeasureRun<S, R, P>,
): Promise<{ results: R[]; load: Load; plans: P[] }> {
  await warmUp(m.client, m.scenarios, settings.warmupPerScenario, concurrency);
  const endLoad = await startLoad(m.ref, m.serverCpuMs);
  const results = await m.measure();
  const load = await endLoad();
  const plans: P[] = [];
  for (const r of slowestResults(
    results,
    settings.targetMs,
    settings.explainAtLeast,
    settings.explainAtMost,
  )) {
    for (const plan of await m.explain(r)) {
      plans.push(plan);
      console.log(
        `\n--- EXPLAIN (ANALYZE, BUFFERS): ${plan.scenario}, ${plan.kind} ${settings.noun} ---\n${plan.text}`,
      );
    }
  }
  return { results, load, plans };
}

/** How an HTTP benchmark reports a run (see `reportRun`). */
export interface ReportPlan<O, R, P> {
  section: (run: MeasuredRun<O, R, P>) => string;
  /** The markdown tables printed at the end. */
  tables: (run: MeasuredRun<O, R, P>) => string[][];
  /** The load described in one line. */
  loadText: (run: MeasuredRun<O, R, P>) => string;
  heading: string;
  /** Writes the section's text into docs/benchmarks.md. */
  writeDoc: (text: string) => void;
}

/**
 * Reads the machine facts, prints the tables and the summary lines and, when `options.write`, writes the
 * section into docs/benchmarks.md.
 */
export async function reportRun<O extends { write: boolean }, R, P>(
  ref: pg.Pool,
  parts: Omit<MeasuredRun<O, R, P>, 'env'>,
  how: ReportPlan<O, R, P>,
): Promise<void> {
  const run = { ...parts, env: await machineFacts(ref, PLANNER_SETTINGS) };
  const text = how.section(run);
  printSummary(how.tables(run), run.env, run.volumes, how.loadText(run));
  if (run.options.write) {
    how.writeDoc(text);
    console.log(
      `wrote the '${how.heading.slice(3)}' section of ${path.relative(process.cwd(), BENCHMARKS_DOC)}`,
    );
  }
}
