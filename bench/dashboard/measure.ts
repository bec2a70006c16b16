/**
 * Scenarios and measurement of the dashboard benchmark: the reads, the HTTP client, the measured runs
 * and the plans of the slowest.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { localToday } from '../../apps/server/src/modules/dashboard/dashboard-service.js';
import type { RunResult } from '../support/http-bench.js';
import { f0, f1 } from '../support/load.js';
import { type Plan as BasePlan, explainQuery, recordQueries } from '../support/plans.js';
import { recordDuring } from '../support/query-recorder.js';
import { stats } from '../support/stats.js';
import type { Options } from './options.js';
import { PERIOD_DAYS } from './seed.js';

export type QueryKind = 'dashboard' | 'chart' | 'other';
/** Which dashboard statement a recorded query is (the rest: auth guard and the like). */
export function queryKind(text: string): QueryKind {
  if (/"supportHappening"/.test(text)) return 'dashboard';
  if (/as nome|generate_series/i.test(text)) return 'chart';
  return 'other';
}

/** One measured read: a path and its query. */
export interface Scenario {
  name: string;
  path: string;
  query: Record<string, string>;
}

/** yyyy-MM-dd `days` before the local date `date`. */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** The scenarios: the dashboard over 7, 30, 90 days and the whole period, and its two charts. */
export function scenarios(): Scenario[] {
  const today = localToday();
  const from30 = daysBefore(today, 29);
  const yesterday = daysBefore(today, 1);
  return [
    { name: 'dashboard days=7', path: '/api/dashboard', query: { days: '7' } },
    { name: 'dashboard days=30', path: '/api/dashboard', query: { days: '30' } },
    { name: 'dashboard days=90', path: '/api/dashboard', query: { days: '90' } },
    {
      name: `dashboard range ${PERIOD_DAYS} days`,
      path: '/api/dashboard',
      query: { date_from: daysBefore(today, PERIOD_DAYS - 1), date_to: today },
    },
    {
      name: 'ticketsUsers 30 days',
      path: '/api/dashboard/ticketsUsers',
      query: { initialDate: from30, finalDate: today },
    },
    {
      name: 'ticketsDay 30 days (per day)',
      path: '/api/dashboard/ticketsDay',
      query: { initialDate: from30, finalDate: today },
    },
    {
      name: 'ticketsDay 1 day (per hour)',
      path: '/api/dashboard/ticketsDay',
      query: { initialDate: yesterday, finalDate: yesterday },
    },
  ];
}

/** What one scenario measured. */
export interface ScenarioResult {
  scenario: Scenario;
  /** A short summary of the answer (sanity and volumes). */
  answer: string;
  bytes: number;
  sequential: RunResult;
  concurrent: RunResult;
  /** Mean ms per request in the app's SQL (sequential run), by statement kind. */
  sqlMs: Record<QueryKind, number>;
}

/** The HTTP client of the scenarios, in this process (the server shares it). */
export class Client {
  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly ref: pg.Pool,
    private readonly options: Options,
  ) {}

  /** Measures every scenario (see `measureAll`). */
  measureAll(list: Scenario[]): Promise<ScenarioResult[]> {
    return measureAll(this, list, this.options);
  }

  /** The plans of a measured scenario's statements (see `explain`). */
  explain(result: ScenarioResult): Promise<Plan[]> {
    return explain(this, this.ref, result.scenario);
  }

  /** One request; resolves with its wall time (until the whole body is read) and the body. */
  async get(scenario: Scenario): Promise<{ ms: number; body: string }> {
    const started = performance.now();
    const res = await fetch(`${this.base}${scenario.path}?${new URLSearchParams(scenario.query)}`, {
      headers: { authorization: `Bearer ${this.token}` },
    });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${scenario.name}: HTTP ${res.status} ${body.slice(0, 300)}`);
    return { ms, body };
  }

  /** `requests` requests with `inFlight` of them at a time. */
  async run(scenario: Scenario, requests: number, inFlight: number): Promise<RunResult> {
    const samples: number[] = [];
    let issued = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (issued < requests) {
          issued++;
          samples.push((await this.get(scenario)).ms);
        }
      }),
    );
    return { latency: stats(samples), perSecond: requests / ((performance.now() - started) / 1000) };
  }
}

function summarize(body: string): string {
  const answer = JSON.parse(body) as {
    counters?: Record<string, number>;
    attendants?: { online: boolean; tickets: number }[];
    data?: unknown[];
    count?: number;
  };
  if (answer.counters) {
    const c = answer.counters;
    const a = answer.attendants ?? [];
    return (
      `finished ${f0(c.supportFinished ?? 0)}, leads ${f0(c.leads ?? 0)}, open ${f0(c.supportHappening ?? 0)}, ` +
      `pending ${f0(c.supportPending ?? 0)}, avg support ${f1(c.avgSupportTime ?? 0)} min, avg wait ` +
      `${f1(c.avgWaitTime ?? 0)} min; ${a.length} attendants (${a.filter((x) => x.online).length} online)`
    );
  }
  return `${answer.data?.length ?? 0} rows, count ${f0(answer.count ?? 0)}`;
}

/** Measures every scenario: a sequential run with the app's queries recorded, then a concurrent one. */
export async function measureAll(
  client: Client,
  list: Scenario[],
  options: Options,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of list) {
    const probe = await client.get(scenario);
    const { result: sequential, queries } = await recordDuring(() =>
      client.run(scenario, options.requests, 1),
    );
    const sqlMs: Record<QueryKind, number> = { dashboard: 0, chart: 0, other: 0 };
    // A query still running (a background job of the app) has no duration yet: left out.
    for (const q of queries) {
      if (Number.isFinite(q.ms)) sqlMs[queryKind(q.text)] += q.ms / options.requests;
    }
    const concurrent = await client.run(scenario, options.requests, options.concurrency);
    const result: ScenarioResult = {
      scenario,
      answer: summarize(probe.body),
      bytes: Buffer.byteLength(probe.body),
      sequential,
      concurrent,
      sqlMs,
    };
    results.push(result);
    const s = sequential.latency;
    const c = concurrent.latency;
    console.log(
      `${scenario.name.padEnd(30)} | seq p50 ${f1(s.p50)} p99 ${f1(s.p99)} max ${f1(s.max)} ms ` +
        `${f0(sequential.perSecond)} req/s | C=${options.concurrency} p50 ${f1(c.p50)} p99 ${f1(c.p99)} ms ` +
        `${f0(concurrent.perSecond)} req/s | ${result.answer}`,
    );
  }
  return results;
}

/** A plan of a dashboard or chart statement. */
export type Plan = BasePlan<QueryKind>;

/** EXPLAIN (ANALYZE, BUFFERS) of the dashboard statements the app runs for one request. */
export async function explain(client: Client, ref: pg.Pool, scenario: Scenario): Promise<Plan[]> {
  const captured = (await recordQueries(() => client.get(scenario))).filter(
    (q) => queryKind(q.text) !== 'other',
  );
  const plans: Plan[] = [];
  for (const query of captured)
    plans.push(await explainQuery(ref, query, scenario.name, queryKind(query.text)));
  return plans;
}
