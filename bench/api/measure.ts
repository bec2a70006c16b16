/**
 * Scenarios and measurement of the tickets API benchmark: the reads, the HTTP client (requests sent
 * by the load generator's child process, CPU of the server and of Postgres measured meanwhile), the
 * measured runs and the plans of the slowest.
 */
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { backendCpuMsSince, backendJiffies } from '../support/cpu.js';
import type { RunResult as HttpRunResult } from '../support/http-bench.js';
import { f0, f1, f2 } from '../support/load.js';
import type { LoadGenerator } from '../support/load-generator.js';
import { type Plan as BasePlan, explainQuery, recordQueries } from '../support/plans.js';
import { recordDuring } from '../support/query-recorder.js';
import { stats } from '../support/stats.js';
import type { Options } from './options.js';
import { COMMON_WORD, NAME_PART, RARE_WORD, type SeededCompany, TAG_NAMES } from './seed.js';

/** Which part of GET /api/tickets a recorded query is. */
export function queryKind(text: string): 'page' | 'count' | 'other' {
  if (!/from "tickets"/i.test(text)) return 'other';
  if (/json_agg/i.test(text)) return 'page';
  if (/count\(\*\)/i.test(text)) return 'count';
  return 'other';
}

/** CPU ms per request: the server process and the database's Postgres backends. */
export interface CpuPerRequest {
  node: number;
  postgres: number;
}

/** One measured read: who asks, what path (GET /api/tickets by default) with what query. */
export interface Scenario {
  name: string;
  as: 'admin' | 'agent';
  query: Record<string, string>;
  /** Another hot read than GET /api/tickets (e.g. '/api/contacts'); its answer's count is reported. */
  path?: string;
}

/**
 * The scenarios over the seeded company: pages, filters and searches of GET /api/tickets as the admin
 * and as the agent, then a busy ticket's messages page and the contacts list.
 */
export function scenariosFor(company: SeededCompany, numberPart: string, busyTicketId: number): Scenario[] {
  const q = (query: Record<string, string | number | boolean | number[]>) =>
    Object.fromEntries(
      Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? JSON.stringify(v) : String(v)]),
    );
  const third = company.queueIds[2]!;
  const tag = company.tagIds[2]!;
  return [
    { name: 'admin showAll, page 1', as: 'admin', query: q({ showAll: true, pageNumber: 1 }) },
    { name: 'admin showAll, page 10', as: 'admin', query: q({ showAll: true, pageNumber: 10 }) },
    { name: 'admin status=open', as: 'admin', query: q({ showAll: true, status: 'open' }) },
    {
      name: 'admin status=open, all queueIds',
      as: 'admin',
      query: q({ showAll: true, status: 'open', queueIds: company.queueIds }),
    },
    { name: 'admin status=pending', as: 'admin', query: q({ showAll: true, status: 'pending' }) },
    { name: 'admin queue filter (1 queue)', as: 'admin', query: q({ showAll: true, queueIds: [third] }) },
    { name: 'agent page 1 (visibility)', as: 'agent', query: q({ pageNumber: 1 }) },
    { name: 'agent status=open (visibility)', as: 'agent', query: q({ status: 'open' }) },
    {
      name: 'agent status=open, queueIds (visibility)',
      as: 'agent',
      query: q({ status: 'open', queueIds: company.queueIds.slice(0, 2) }),
    },
    {
      name: 'admin status=open, unread',
      as: 'admin',
      query: q({ showAll: true, status: 'open', withUnreadMessages: true }),
    },
    {
      name: 'admin status=closed, users filter (the agent)',
      as: 'admin',
      query: q({ showAll: true, status: 'closed', users: [company.agent?.id ?? company.admin.id] }),
    },
    {
      name: `search common word '${COMMON_WORD}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: COMMON_WORD }),
    },
    {
      name: `search rare word '${RARE_WORD}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: RARE_WORD }),
    },
    {
      name: `search number part '${numberPart}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: numberPart }),
    },
    {
      name: `search name part '${NAME_PART}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: NAME_PART }),
    },
    { name: `tag filter ('${TAG_NAMES[2]}')`, as: 'admin', query: q({ showAll: true, tags: [tag] }) },
    {
      name: `agent search '${COMMON_WORD}' (visibility)`,
      as: 'agent',
      query: q({ searchParam: COMMON_WORD }),
    },
    {
      name: 'messages page 2 of a busy ticket',
      as: 'admin',
      path: `/api/messages/${busyTicketId}`,
      query: q({ pageNumber: 2 }),
    },
    { name: 'contacts list, page 1', as: 'admin', path: '/api/contacts', query: q({ pageNumber: 1 }) },
  ];
}

/** A run's latency, throughput and CPU per request. */
export interface RunResult extends HttpRunResult {
  cpu: CpuPerRequest;
}

/** What one scenario measured. */
export interface ScenarioResult {
  scenario: Scenario;
  /** `count` and page length of the answer. */
  count: number;
  pageLength: number;
  bytes: number;
  sequential: RunResult;
  concurrent: RunResult;
  /**
   * CPU ms per request of the server process plus the database's Postgres backends (the load
   * generator runs in another process), in the sequential and in the concurrent run.
   */
  cpuMs: { sequential: CpuPerRequest; concurrent: CpuPerRequest };
  /** Mean ms per request spent in the app's SQL (sequential run): page, count, the rest. */
  sqlMs: { page: number; count: number; other: number };
  queriesPerRequest: number;
}

/** The HTTP client of the scenarios: single requests itself, runs through the load generator. */
export class Client {
  constructor(
    private readonly base: string,
    private readonly tokens: Record<Scenario['as'], string>,
    private readonly ref: pg.Pool,
    private readonly load: LoadGenerator,
    private readonly options: Options,
    /** CPU ms used so far by the server's process(es). */
    private readonly serverCpuMs: () => number,
  ) {}

  /** The `accept-encoding` of every request (`--encoding`; '' sends identity). */
  private get encoding(): string {
    return this.options.encoding || 'identity';
  }

  /** Measures every scenario (see `measureAll`). */
  measureAll(scenarios: Scenario[]): Promise<ScenarioResult[]> {
    return measureAll(this, scenarios, this.options);
  }

  /** The plans of a measured scenario's page and count queries (see `explain`). */
  explain(result: ScenarioResult): Promise<Plan[]> {
    return explain(this, this.ref, result.scenario);
  }

  /** The scenario's full URL. */
  url(scenario: Scenario): string {
    return `${this.base}${scenario.path ?? '/api/tickets'}?${new URLSearchParams(scenario.query)}`;
  }

  /** One request; resolves with its wall time (until the whole body is read) and the body. */
  async get(scenario: Scenario): Promise<{ ms: number; body: string }> {
    const started = performance.now();
    const res = await fetch(this.url(scenario), {
      headers: { authorization: `Bearer ${this.tokens[scenario.as]}`, 'accept-encoding': this.encoding },
    });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${scenario.name}: HTTP ${res.status} ${body.slice(0, 300)}`);
    return { ms, body };
  }

  /**
   * `requests` requests with `inFlight` of them at a time, sent by the load generator's child process;
   * the CPU time of this (server) process and of the database's backends is measured meanwhile.
   */
  async run(scenario: Scenario, requests: number, inFlight: number): Promise<RunResult> {
    const jiffies0 = await backendJiffies(this.ref);
    const cpu0 = this.serverCpuMs();
    const answer = await this.load.send({
      url: this.url(scenario),
      token: this.tokens[scenario.as],
      encoding: this.encoding,
      requests,
      inFlight,
    });
    const nodeMs = this.serverCpuMs() - cpu0;
    const postgresMs = await backendCpuMsSince(this.ref, jiffies0);
    return {
      latency: stats(answer.samples),
      perSecond: requests / answer.seconds,
      cpu: { node: nodeMs / requests, postgres: postgresMs / requests },
    };
  }
}

/**
 * Measures every scenario: a sequential run with the app's queries recorded, then a run with
 * `options.concurrency` in flight; prints a line per scenario.
 */
export async function measureAll(
  client: Client,
  scenarios: Scenario[],
  options: Options,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const probe = await client.get(scenario);
    const answer = JSON.parse(probe.body) as { count: number } & Record<string, unknown>;
    const list = (answer.tickets ?? answer.messages ?? answer.contacts ?? []) as unknown[];

    const { result: sequential, queries } = await recordDuring(() =>
      client.run(scenario, options.requests, 1),
    );
    // The recorder sees the in-process app's queries only: with worker processes they are unknown.
    const recorded = options.workers === 1;
    const sqlMs = recorded
      ? { page: 0, count: 0, other: 0 }
      : { page: Number.NaN, count: Number.NaN, other: Number.NaN };
    for (const query of queries) sqlMs[queryKind(query.text)] += query.ms / options.requests;
    const queriesPerRequest = recorded ? queries.length / options.requests : Number.NaN;

    const concurrent = await client.run(scenario, options.requests, options.concurrency);
    const result: ScenarioResult = {
      scenario,
      count: answer.count,
      pageLength: list.length,
      bytes: Buffer.byteLength(probe.body),
      sequential,
      concurrent,
      cpuMs: { sequential: sequential.cpu, concurrent: concurrent.cpu },
      sqlMs,
      queriesPerRequest,
    };
    results.push(result);
    const s = sequential.latency;
    const c = concurrent.latency;
    console.log(
      `${scenario.name.padEnd(44)} count ${String(answer.count).padStart(6)} | seq p50 ${f1(s.p50)} p99 ` +
        `${f1(s.p99)} max ${f1(s.max)} ms ${f0(sequential.perSecond)} req/s | C=${options.concurrency} p99 ` +
        `${f1(c.p99)} ms ${f0(concurrent.perSecond)} req/s | CPU ms/req ${f2(concurrent.cpu.node + concurrent.cpu.postgres)} ` +
        `(node ${f2(concurrent.cpu.node)} pg ${f2(concurrent.cpu.postgres)}) | ${f1(queriesPerRequest)} queries | ` +
        `SQL page ${f1(sqlMs.page)} count ${f1(sqlMs.count)} ms`,
    );
  }
  return results;
}

/** A plan of the page or count query, with the body search's scan when there is one. */
export interface Plan extends BasePlan<'page' | 'count'> {
  /** The Bitmap Heap Scan on messages (the body search): rows it kept and its time. */
  messageScan?: { rows: number; ms: number };
}

function messageScanOf(text: string): Plan['messageScan'] {
  const m = /Bitmap Heap Scan on messages .*?actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)/.exec(
    text,
  );
  return m ? { ms: Number(m[1]) * Number(m[3]), rows: Number(m[2]) } : undefined;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the page and count queries the app runs for one request. */
export async function explain(client: Client, ref: pg.Pool, scenario: Scenario): Promise<Plan[]> {
  const captured = (await recordQueries(() => client.get(scenario))).filter(
    (q) => queryKind(q.text) !== 'other',
  );
  const plans: Plan[] = [];
  for (const query of captured) {
    const plan = await explainQuery(ref, query, scenario.name, queryKind(query.text) as 'page' | 'count');
    plans.push({ ...plan, messageScan: messageScanOf(plan.text) });
  }
  return plans;
}
