/**
 * Dashboard latency benchmark (target: `GET /api/dashboard` answers under 100 ms at p99
 * over 100,000 tickets). One company with N tickets spread over 180 days (realistic accepted/closed
 * times, statuses, ~20 agents, contacts created over the period, a few thousand ratings) plus a smaller
 * second company, seeded with set-based SQL on a fresh Postgres database and ANALYZEd; then
 * `GET /api/dashboard` (7, 30, 90 days, a 180-day range) and the two charts (`ticketsUsers`,
 * `ticketsDay` per day and per hour) measured over HTTP on loopback, sequential and with a few
 * requests in flight. Prints p50/p95/p99/max, the EXPLAIN (ANALYZE, BUFFERS) plans of the slowest
 * scenarios' queries, and rewrites the 'Dashboard (bench/dashboard)' section of docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/dashboard/run.ts [--tickets 100000] [--requests 200]
 *     [--concurrency 4] [--timeout 1200] [--no-write] [--keep-database]
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure, interruption or timeout
 * (`--keep-database` keeps it and prints its name, to study plans by hand).
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { loadSecrets } from '../../apps/server/src/lib/secrets.js';
import { localToday } from '../../apps/server/src/modules/dashboard/dashboard-service.js';
import { createCompany, createUser, type TestUser, tokenFor } from '../../apps/server/src/test/factories.js';
import { f0, f1, type Load, loadText, startLoad } from '../support/load.js';
import { installQueryRecorder, recorder } from '../support/query-recorder.js';
import { type Stats, stats } from '../support/stats.js';
import { createTeardown } from '../support/teardown.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const HEADING = '## Dashboard (bench/dashboard)';
const INTRO_BULLET = [
  '- **Dashboard** (`bench/dashboard`): latency of `GET /api/dashboard` (7, 30, 90 days and a 180-day',
  '  range) and of its two charts over HTTP with 100,000 tickets over 180 days in one company, with the',
  '  query plans of the slowest scenarios.',
];
/** The target: GET /api/dashboard under 100 ms at p99 over 100,000 tickets. */
const TARGET_P99_MS = 100;
const WARMUP_PER_SCENARIO = 10;
const PERIOD_DAYS = 180;
const AGENTS = 19;
const ONLINE_AGENTS = 7;
const EXPLAIN_AT_LEAST = 2;
const EXPLAIN_AT_MOST = 4;
/** How the dashboard statement works and what changed, for the section (keep it true to the service). */
const HOW = [
  'How: one statement. The whole local days of the period come from `dashboard_ticket_days` (migration ' +
    '0010: per company, local day and agent, the tickets closed that day with their summed support seconds ' +
    'and the tickets accepted that day with their summed wait seconds, kept exact by row triggers on ' +
    '`tickets` that fire only when status, closed_at, accepted_at, created_at, user_id or company_id ' +
    'change); the partial days at the ends of a rolling window (`days=N`) are read from the tickets ' +
    'through the covering indexes `(company_id, closed_at) include (status, accepted_at, user_id)` and ' +
    '`(company_id, accepted_at) include (created_at)` (migration 0009, index-only scans). Counters and ' +
    'attendants come from one grouping (`grouping sets ((user_id), ())`), the live counters from one ' +
    '`count(*) filter (...)` pass, leads from `(company_id, created_at) include (is_group)`; averages are ' +
    'exact sums of seconds over counts, so the figures are those of the plain aggregates. Leads are still ' +
    'counted live (about 8 to 10 ms for the 70,000 contacts of 180 days, most of the SQL of the long ' +
    "periods): a contacts rollup would need a trigger on the inbound pipeline's contact insert writing one " +
    'row per company and day, so it is left out.',
  '',
  'Before (the two-statement design: counters and attendants reading `tickets` four times over plain ' +
    '`(company_id, closed_at)` and `(company_id, accepted_at)` indexes, sequential scans for long periods): ' +
    'sequential p99 34.1 / 72.0 / **143.6** / **127.3** ms for 7 / 30 / 90 days / the 180-day range, 4 in ' +
    'flight 68.5 / **179.3** / **466.7** / **402.4** ms (recorded run of 2026-11-21, 30% other load); rerun ' +
    'on this machine before the change under 58% other load: 34.5 / 63.0 / **224.3** / **178.3** ms, 4 in ' +
    'flight 92.9 / **158.2** / **464.1** / **302.3** ms. The first step alone (one statement, one grouped ' +
    'pass, covering indexes, no rollup; 50% other load): 38.1 / 63.6 / 55.2 / **233.1** ms, 4 in flight ' +
    '69.1 / 60.5 / **121.5** / **343.2** ms: the 180-day range still reads every ticket of the company (a ' +
    'sequential scan, 78 ms of SQL per request), hence the rollup. Two other runs of this design under ' +
    'heavier other load (26% and 42%) kept every sequential p99 under 76 ms but had one scenario each over ' +
    'the target with 4 in flight (30 days 106.6 ms, the 180-day range 128.9 ms; p95 54.7 and 78.7 ms): ' +
    'single stalls of the shared machine (max 198 and 261 ms), with 5 to 14 ms of SQL per request.',
];

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  tickets: number;
  requests: number;
  concurrency: number;
  timeoutSeconds: number;
  write: boolean;
  /** Keep the seeded database at the end (for EXPLAIN work by hand) instead of dropping it. */
  keep: boolean;
  serverUrl: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      tickets: { type: 'string', default: '100000' },
      requests: { type: 'string', default: '200' },
      concurrency: { type: 'string', default: '4' },
      timeout: { type: 'string', default: '1200' },
      'no-write': { type: 'boolean', default: false },
      'keep-database': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/dashboard/run.ts [--tickets N] [--requests R] [--concurrency C]\n' +
        '  [--timeout seconds] [--no-write] [--keep-database]',
    );
    process.exit(0);
  }
  const int = (name: string, text: string, min: number, max: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`--${name} takes an integer from ${min} to ${max}, got '${text}'`);
    }
    return n;
  };
  return {
    tickets: int('tickets', values.tickets, 1000, 5_000_000),
    requests: int('requests', values.requests, 20, 20_000),
    concurrency: int('concurrency', values.concurrency, 2, 64),
    timeoutSeconds: int('timeout', values.timeout, 30, 7200),
    write: !values['no-write'],
    keep: values['keep-database'],
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}

// ---------------------------------------------------------------------------------------------
// Teardown: every resource registers its release; they run in reverse order, once, even on failure.

const { onTeardown, teardown, abort } = createTeardown('dashboard benchmark');

// ---------------------------------------------------------------------------------------------
// SQL recorder: the app's queries (through its pg.Pool) with their text, values and duration.

installQueryRecorder();

type QueryKind = 'dashboard' | 'chart' | 'other';
/** Which dashboard statement a recorded query is (the rest: auth guard and the like). */
function queryKind(text: string): QueryKind {
  if (/"supportHappening"/.test(text)) return 'dashboard';
  if (/as nome|generate_series/i.test(text)) return 'chart';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// Seed data

const FIRST_NAMES = (
  'Ana Maria Mariana Juliana Fernanda Fernando Patrícia Aline Camila Amanda Bruna Letícia Gabriela ' +
  'Larissa Beatriz Carla Vanessa Luciana Renata Daniela José João Antônio Francisco Carlos Paulo Pedro ' +
  'Lucas Luiz Marcos Luis Gabriel Rafael Daniel Marcelo Bruno Eduardo Felipe Rodrigo Gustavo Thiago'
).split(' ');
const LAST_NAMES = (
  'Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins ' +
  'Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes'
).split(' ');
const AREA_CODES = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '19', '27', '48', '62', '92'];

interface SeededCompany {
  companyId: number;
  admin: TestUser;
  tickets: number;
  contacts: number;
}

/**
 * Seeds one company: an admin and `AGENTS` agents (`ONLINE_AGENTS` of them online), a simulator
 * connection row, contacts (70% of the tickets: repeat customers) created over the period, tickets over
 * the period and ratings on about 4% of the closed tickets. Everything bulk is one INSERT ... SELECT
 * over generate_series.
 *
 * Tickets: created uniformly over the last `PERIOD_DAYS` local days, within business hours (7h..21h
 * local, more in the middle of the day); wait until accepted ~ exponential, mean 12 min; support time
 * 2 min + exponential, mean 40 min. Tickets created in the last 2 days are live with some chance
 * (open 35%, pending 20%), a few old ones stay open (0.3%); the rest is closed, 6% of them without an
 * agent (closed by the bot or from pending). Agents are drawn with a skew (some take more tickets).
 */
async function seedCompany(
  app: FastifyInstance,
  sql: pg.Client,
  size: { tickets: number; seed: number; numberOffset: number; agents: number; online: number },
): Promise<SeededCompany> {
  const companyId = await createCompany(app);
  const admin = await createUser(app, companyId, { profile: 'admin', name: 'Bench Admin' });
  await sql.query('select setseed($1)', [size.seed]);
  const { rows: agents } = await sql.query<{ id: number }>(
    `insert into users (company_id, name, email, password_hash, profile, online)
     select $1::int, ($2::text[])[1 + (g * 5) % array_length($2::text[], 1)] || ' ' ||
              ($3::text[])[1 + (g * 7) % array_length($3::text[], 1)],
            'bench-agent-' || $1::int || '-' || g || '@example.test', 'not-a-hash', 'user', g <= $5::int
     from generate_series(1, $4::int) g returning id`,
    [companyId, FIRST_NAMES, LAST_NAMES, size.agents, size.online],
  );
  const agentIds = agents.map((a) => a.id);
  const { rows: wa } = await sql.query<{ id: number }>(
    `insert into whatsapps (company_id, name, status, provider, is_default)
     values ($1, 'Bench simulator', 'DISCONNECTED', 'simulator', true) returning id`,
    [companyId],
  );
  const whatsappId = wa[0]!.id;
  const contacts = Math.max(1, Math.round(size.tickets * 0.7));

  // Contacts created over the period (a few groups, not counted as leads).
  await sql.query(
    `insert into contacts (company_id, name, number, email, is_group, created_at, updated_at)
     select $1::int,
            ($3::text[])[1 + floor(random() * array_length($3::text[], 1))::int] || ' ' ||
              ($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int],
            '55' || ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int] || '9' ||
              lpad(((g::bigint * 7919 + $6) % 100000000)::text, 8, '0'),
            '', g % 500 = 0, c.at, c.at
     from generate_series(1, $2::int) g
     cross join lateral (select now() - make_interval(days => $7::int) * random() + make_interval(secs => g * 0) as at) c`,
    [companyId, contacts, FIRST_NAMES, LAST_NAMES, AREA_CODES, size.numberOffset, PERIOD_DAYS],
  );
  await sql.query('drop table if exists bench_contacts');
  await sql.query(
    `create temp table bench_contacts as
     select row_number() over (order by id)::int as rn, id from contacts where company_id = $1`,
    [companyId],
  );
  await sql.query('create unique index on bench_contacts (rn)');
  await sql.query('analyze bench_contacts');

  // Tickets (the triggers of migration 0010 fill the dashboard's per-day rollup as they go in): ticket g
  // belongs to contact 1 + (g - 1) % contacts, so a live ticket (only g <= contacts
  // may be live) has a contact of its own (the partial unique index on live tickets).
  await sql.query(
    `insert into tickets (company_id, contact_id, whatsapp_id, user_id, status, accepted_at, closed_at,
                          created_at, updated_at)
     select $1::int, c.id, $2::int,
            case when s.status = 'pending' or (s.status = 'closed' and s.r_noagent < 0.06) then null
                 else ($3::int[])[1 + floor(power(s.r_agent, 1.3) * array_length($3::int[], 1))::int] end,
            s.status, s.accepted, s.closed, s.created, coalesce(s.closed, s.accepted, s.created)
     from (select t.*,
                  case when t.status = 'pending' or (t.status = 'closed' and t.r_noagent < 0.06) then null
                       else least(t.created + make_interval(secs => 20 - ln(1 - t.r_wait) * 720), now()) end
                    as accepted
           from (select b.*,
                        case when b.g <= $5::int and b.created > now() - interval '2 days' and b.r_status < 0.2
                               then 'pending'
                             when b.g <= $5::int and b.created > now() - interval '2 days' and b.r_status < 0.55
                               then 'open'
                             when b.g <= $5::int and b.r_status < 0.003 then 'open'
                             else 'closed' end as status
                 from (select g, random() as r_status, random() as r_agent, random() as r_noagent,
                              random() as r_wait, random() as r_support,
                              least(((current_date - floor(random() * $6::int)::int)::timestamp
                                       + make_interval(secs => 25200 + 50400 * (0.5 + (random() + random() - 1) / 2)))
                                      at time zone $7::text,
                                    now() - make_interval(secs => random() * 3600)) as created
                       from generate_series(1, $4::int) g offset 0) b) t) s0
     cross join lateral (select s0.*, case when s0.status = 'closed'
                                  then least(coalesce(s0.accepted, s0.created)
                                             + make_interval(secs => 120 - ln(1 - s0.r_support) * 2400), now())
                                  end as closed) s
     join bench_contacts c on c.rn = 1 + (s.g - 1) % $5::int`,
    [companyId, whatsappId, agentIds, size.tickets, contacts, PERIOD_DAYS, DASHBOARD_TIME_ZONE],
  );

  // Ratings on about 4% of the closed tickets with an agent, a few minutes after closing; skewed
  // towards 3 (very satisfied).
  await sql.query(
    `insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
     select $1::int, t.id, t.user_id,
            case when r < 0.15 then 1 when r < 0.4 then 2 else 3 end,
            least(t.closed_at + make_interval(secs => 30 + random() * 600), now())
     from (select id, user_id, closed_at, random() as r from tickets
           where company_id = $1 and status = 'closed' and user_id is not null) t
     where random() < 0.04`,
    [companyId],
  );
  await sql.query('drop table bench_contacts');
  return { companyId, admin, tickets: size.tickets, contacts };
}

// ---------------------------------------------------------------------------------------------
// Scenarios and measurement

interface Scenario {
  name: string;
  path: string;
  query: Record<string, string>;
}

/** yyyy-MM-dd `days` before the local date `date`. */
function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

function scenarios(): Scenario[] {
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

interface RunResult {
  latency: Stats;
  perSecond: number;
}

interface ScenarioResult {
  scenario: Scenario;
  /** A short summary of the answer (sanity and volumes). */
  answer: string;
  bytes: number;
  sequential: RunResult;
  concurrent: RunResult;
  /** Mean ms per request in the app's SQL (sequential run), by statement kind. */
  sqlMs: Record<QueryKind, number>;
}

class Client {
  constructor(
    private readonly base: string,
    private readonly token: string,
  ) {}

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

async function warmUp(client: Client, list: Scenario[], options: Options): Promise<void> {
  for (let i = 0; i < WARMUP_PER_SCENARIO; i++) {
    for (const scenario of list) await client.get(scenario);
  }
  for (const scenario of list) await client.run(scenario, options.concurrency * 2, options.concurrency);
}

async function measureAll(client: Client, list: Scenario[], options: Options): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of list) {
    const probe = await client.get(scenario);
    recorder.queries = [];
    recorder.on = true;
    const sequential = await client.run(scenario, options.requests, 1);
    recorder.on = false;
    await new Promise((resolve) => setImmediate(resolve));
    const sqlMs: Record<QueryKind, number> = { dashboard: 0, chart: 0, other: 0 };
    // A query still running (a background job of the app) has no duration yet: left out.
    for (const q of recorder.queries) {
      if (Number.isFinite(q.ms)) sqlMs[queryKind(q.text)] += q.ms / options.requests;
    }
    recorder.queries = [];
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

// ---------------------------------------------------------------------------------------------
// Plans

interface Plan {
  scenario: string;
  kind: QueryKind;
  text: string;
  executionMs: number;
  planningMs: number;
  indexes: string[];
  seqScans: string[];
  jit: boolean;
  buffers: string;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the dashboard statements the app runs for one request. */
async function explain(client: Client, ref: pg.Pool, scenario: Scenario): Promise<Plan[]> {
  recorder.queries = [];
  recorder.on = true;
  await client.get(scenario);
  recorder.on = false;
  const captured = recorder.queries.filter((q) => queryKind(q.text) !== 'other');
  recorder.queries = [];
  const plans: Plan[] = [];
  for (const query of captured) {
    const { rows } = await ref.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${query.text}`,
      query.values,
    );
    const text = rows.map((r) => r['QUERY PLAN']).join('\n');
    const unique = (re: RegExp) => [...new Set([...text.matchAll(re)].map((m) => m[1]!))];
    plans.push({
      scenario: scenario.name,
      kind: queryKind(query.text),
      text,
      executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
      planningMs: Number(/Planning Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
      indexes: unique(/(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)/g),
      seqScans: unique(/Seq Scan on (\S+)/g),
      jit: /^JIT:/m.test(text),
      buffers: /Buffers: (shared [^\n]*)/.exec(text)?.[1]?.trim() ?? '',
    });
  }
  return plans;
}

// ---------------------------------------------------------------------------------------------
// Reference answer

/**
 * The dashboard as the plain aggregates over tickets, contacts and ratings compute it (the statements
 * the service ran before the rollup): the bench checks the service against it on the seeded data.
 */
async function referenceDashboard(ref: pg.Pool, companyId: number, query: Record<string, string>) {
  const tz = `'${DASHBOARD_TIME_ZONE}'`;
  const [from, to, values] = query.days
    ? ['(now() - make_interval(days => $2::int))', 'now()', [companyId, Number(query.days)]]
    : [
        `($2::date::timestamp at time zone ${tz})`,
        `(($3::date + 1)::timestamp at time zone ${tz})`,
        [companyId, query.date_from, query.date_to],
      ];
  const avg = (end: string, start: string) =>
    `coalesce(round(avg(extract(epoch from (${end} - ${start}))) / 60, 2), 0)::float8`;
  const { rows } = await ref.query<{ counters: Record<string, number>; attendants: unknown[] }>(
    `select json_build_object(
       'supportHappening', (select count(*)::int from tickets where company_id = $1 and status = 'open'),
       'supportPending', (select count(*)::int from tickets where company_id = $1 and status = 'pending'),
       'supportFinished', (select count(*)::int from tickets where company_id = $1 and status = 'closed'
          and closed_at >= ${from} and closed_at < ${to}),
       'leads', (select count(*)::int from contacts where company_id = $1 and not is_group
          and created_at >= ${from} and created_at < ${to}),
       'avgSupportTime', (select ${avg('closed_at', 'accepted_at')} from tickets where company_id = $1
          and status = 'closed' and closed_at >= ${from} and closed_at < ${to} and accepted_at is not null),
       'avgWaitTime', (select ${avg('accepted_at', 'created_at')} from tickets where company_id = $1
          and accepted_at >= ${from} and accepted_at < ${to})) as counters,
     (select json_agg(json_build_object('id', u.id, 'name', u.name, 'online', u.online,
         'rating', coalesce(r.rating, 0)::float8, 'avgSupportTime', coalesce(t.avg_support, 0)::float8,
         'tickets', coalesce(t.tickets, 0)::int) order by u.name, u.id)
      from users u
      left join (select user_id, ${avg('closed_at', 'accepted_at')} as avg_support, count(*) as tickets
        from tickets where company_id = $1 and status = 'closed' and user_id is not null
          and closed_at >= ${from} and closed_at < ${to} group by user_id) t on t.user_id = u.id
      left join (select user_id, round(avg(rate), 2) as rating from user_ratings
        where company_id = $1 and user_id is not null and created_at >= ${from} and created_at < ${to}
        group by user_id) r on r.user_id = u.id
      where u.company_id = $1) as attendants`,
    values,
  );
  return rows[0]!;
}

/**
 * Compares the app's answer for a dashboard scenario with `referenceDashboard`; a rolling window moves
 * between the two queries, so a difference is retried a few times before it fails the run.
 */
async function checkDashboard(client: Client, ref: pg.Pool, companyId: number, scenario: Scenario) {
  for (let attempt = 1; ; attempt++) {
    const answer = JSON.parse((await client.get(scenario)).body) as unknown;
    const expected = await referenceDashboard(ref, companyId, scenario.query);
    if (isDeepStrictEqual(answer, expected)) return;
    if (attempt === 3 || !scenario.query.days) {
      throw new Error(
        `${scenario.name}: the answer differs from the plain aggregates\n` +
          `answer:   ${JSON.stringify(answer)}\nexpected: ${JSON.stringify(expected)}`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Machine, database and data facts

interface Facts {
  date: string;
  nproc: string;
  cpu: string;
  memoryGiB: string;
  node: string;
  postgres: string;
  settings: [string, string][];
  volumes: string;
}

async function facts(ref: pg.Pool, main: SeededCompany, second: SeededCompany): Promise<Facts> {
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    /* not on this machine */
  }
  const version = (await ref.query<{ v: string }>('select version() as v')).rows[0]!.v;
  const settings: [string, string][] = [];
  for (const name of ['shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost', 'jit']) {
    const { rows } = await ref.query<{ v: string }>('select current_setting($1) as v', [name]);
    settings.push([name, rows[0]!.v]);
  }
  const { rows } = await ref.query<Record<string, string>>(
    `select (select count(*) from tickets where company_id = $1 and status = 'pending') as pending,
            (select count(*) from tickets where company_id = $1 and status = 'open') as open,
            (select count(*) from tickets where company_id = $1 and status = 'closed') as closed,
            (select count(*) from tickets where company_id = $1 and status = 'closed' and user_id is null)
              as closed_no_agent,
            (select count(*) from tickets where company_id = $1 and created_at >= now() - interval '30 days')
              as last30,
            (select count(*) from user_ratings where company_id = $1) as ratings,
            (select count(*) from users where company_id = $1) as users,
            (select count(*) from users where company_id = $1 and online) as online,
            (select count(*) from tickets where company_id = $2) as second_tickets,
            (select count(*) from contacts where company_id = $2) as second_contacts,
            (select count(*) from user_ratings where company_id = $2) as second_ratings,
            pg_size_pretty(pg_total_relation_size('tickets')) as tickets_size`,
    [main.companyId, second.companyId],
  );
  const v = rows[0]!;
  const n = (key: string) => f0(Number(v[key]));
  const volumes =
    `company under test: ${f0(main.tickets)} tickets created over the last ${PERIOD_DAYS} days ` +
    `(${n('last30')} in the last 30; ${n('pending')} pending, ${n('open')} open, ${n('closed')} closed, ` +
    `${n('closed_no_agent')} of them without an agent), ${f0(main.contacts)} contacts created over the ` +
    `period, ${n('users')} users (${n('online')} online), ${n('ratings')} ratings; second company: ` +
    `${n('second_tickets')} tickets, ${n('second_contacts')} contacts, ${n('second_ratings')} ratings; ` +
    `tickets table ${v.tickets_size} with its indexes`;
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    nproc,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    postgres: version,
    settings,
    volumes,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

const mark = (p99: number) => (p99 < TARGET_P99_MS ? f1(p99) : `**${f1(p99)}**`);
const sqlText = (r: ScenarioResult) =>
  r.scenario.path === '/api/dashboard'
    ? `${f1(r.sqlMs.dashboard)} / ${f1(r.sqlMs.other)}`
    : `${f1(r.sqlMs.chart)} / ${f1(r.sqlMs.other)}`;

function resultTable(results: ScenarioResult[], concurrency: number): string[] {
  const lines = [
    `| scenario | seq p50 | p95 | p99 | max | req/s | C=${concurrency} p50 | p95 | p99 | max | req/s | SQL ms | answer |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const r of results) {
    const s = r.sequential.latency;
    const c = r.concurrent.latency;
    lines.push(
      `| ${r.scenario.name} | ${f1(s.p50)} | ${f1(s.p95)} | ${mark(s.p99)} | ${f1(s.max)} | ` +
        `${f0(r.sequential.perSecond)} | ${f1(c.p50)} | ${f1(c.p95)} | ${mark(c.p99)} | ${f1(c.max)} | ` +
        `${f0(r.concurrent.perSecond)} | ${sqlText(r)} | ${r.answer} |`,
    );
  }
  return lines;
}

function planTable(plans: Plan[]): string[] {
  const lines = [
    '| scenario | statement | execution ms | planning ms | indexes used | sequential scans | shared buffers | JIT |',
    '| --- | --- | ---: | ---: | --- | --- | --- | --- |',
  ];
  for (const p of plans) {
    lines.push(
      `| ${p.scenario} | ${p.kind} | ${f1(p.executionMs)} | ${f1(p.planningMs)} | ` +
        `${p.indexes.map((i) => `\`${i}\``).join(', ') || '-'} | ${p.seqScans.map((s) => `\`${s}\``).join(', ') || '-'} | ` +
        `${p.buffers.replace('shared ', '') || '-'} | ${p.jit ? 'yes' : 'no'} |`,
    );
  }
  return lines;
}

function section(options: Options, env: Facts, load: Load, results: ScenarioResult[], plans: Plan[]): string {
  const over = (r: ScenarioResult) =>
    r.sequential.latency.p99 >= TARGET_P99_MS || r.concurrent.latency.p99 >= TARGET_P99_MS;
  const dashboard = results.filter((r) => r.scenario.path === '/api/dashboard');
  const misses = results.filter(over);
  const slowest = [...plans].sort((a, b) => b.executionMs - a.executionMs)[0];
  return [
    HEADING,
    '',
    '`GET /api/dashboard` (counters and attendants: one statement) and its two charts ' +
      '(`/api/dashboard/ticketsUsers`, `/api/dashboard/ticketsDay`: one statement each) over HTTP on loopback, ' +
      'as the company admin, against a Postgres server. One company holds the data set below, seeded with ' +
      `set-based SQL (generate_series) and then \`VACUUM ANALYZE\`d: tickets created over the last ${PERIOD_DAYS} ` +
      'local days in business hours, accepted after an exponential wait (mean 12 min) and closed after ' +
      '2 min plus an exponential support time (mean 40 min); the last 2 days hold the live (open and pending) ' +
      'tickets; agents are drawn with a skew; ratings 1..3 (mostly 3) on about 4% of the closed tickets. A ' +
      'second, smaller company shares the tables so that every query has to filter by company. Each scenario ' +
      `runs on its own after a warm-up of ${WARMUP_PER_SCENARIO} requests of every scenario: first sequential ` +
      `requests (one in flight, keep-alive \`fetch\`), then the same number with ${options.concurrency} in ` +
      'flight. Latency runs from sending the request to the end of the body. *SQL ms* is the mean time per ' +
      "request of the app's queries in the sequential run, seen from the app's `pg` pool: dashboard statement / " +
      'the rest (auth guard) for the dashboard, chart / the rest for the charts. Server and load generator ' +
      'share one Node process; Postgres runs on the same machine. Before measuring, the answer of every ' +
      'dashboard scenario is checked against the plain aggregates over the tickets (the statements of the ' +
      'first implementation); a difference fails the run.',
    '',
    'Run it (a few minutes; a fresh database is created on the server and dropped at the end unless `--keep-database`; this section is ' +
      'rewritten with the new figures unless `--no-write`):',
    '',
    '```sh',
    'npx tsx --conditions=source bench/dashboard/run.ts [--tickets 100000] [--requests 200] [--concurrency 4] \\',
    '  [--timeout 1200] [--no-write] [--keep-database]',
    '# BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server',
    '```',
    '',
    `Last run: ${env.date}; \`nproc\` ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB memory, Node ${env.node}; ` +
      `${env.postgres}.`,
    `Postgres settings as found (not changed): ${env.settings.map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`,
    `Data: ${env.volumes}.`,
    `Parameters: ${f0(options.requests)} requests per scenario and run, concurrency ${options.concurrency} ` +
      'in the second run. Times in ms; p99 at or over the target in bold.',
    `Load during the measurements: ${loadText(load)}.` +
      (load.other > 0.1
        ? ' The machine was shared with other work, so these figures are worse than on an idle machine.'
        : ''),
    '',
    ...resultTable(results, options.concurrency),
    '',
    `Target (\`GET /api/dashboard\` under ${TARGET_P99_MS} ms at p99 over 100,000 tickets): ` +
      (dashboard.some(over)
        ? `not met by ${dashboard
            .filter(over)
            .map((r) => r.scenario.name)
            .join('; ')}.`
        : 'met by every dashboard scenario, sequential and concurrent.') +
      (misses.some((r) => r.scenario.path !== '/api/dashboard')
        ? ` Charts over ${TARGET_P99_MS} ms: ${misses
            .filter((r) => r.scenario.path !== '/api/dashboard')
            .map((r) => r.scenario.name)
            .join('; ')}.`
        : ` The charts are under ${TARGET_P99_MS} ms too.`),
    '',
    ...HOW,
    ...(dashboard.some(over)
      ? [
          '',
          `Over the target: ${dashboard
            .filter(over)
            .map((r) => r.scenario.name)
            .join('; ')}. See the plans below (sequential scans on \`tickets\` or \`contacts\`, or a ` +
            'rollup that is not used, are the usual suspects), and the load line above.',
        ]
      : []),
    '',
    '### Plans (bench/dashboard)',
    '',
    'EXPLAIN (ANALYZE, BUFFERS) of the statements the app sent for one request of the slowest scenarios by ' +
      `sequential p99 (those over the target, at least ${EXPLAIN_AT_LEAST}, at most ${EXPLAIN_AT_MOST}), run ` +
      'once more on the same database; the full plans are printed by the run.',
    '',
    ...planTable(plans),
    ...(slowest
      ? [
          '',
          `<details><summary>Slowest plan: ${slowest.scenario}, ${slowest.kind} statement (${f1(slowest.executionMs)} ms)</summary>`,
          '',
          '```text',
          slowest.text,
          '```',
          '',
          '</details>',
        ]
      : []),
    '',
  ].join('\n');
}

/** Replaces the section under HEADING (up to the next '## ' heading) or appends it; adds the intro bullet. */
function writeSection(text: string): void {
  let lines = fs.readFileSync(DOC, 'utf8').split('\n');
  if (!lines.some((line) => line.includes('(`bench/dashboard`)'))) {
    const firstHeading = lines.findIndex((line, i) => i > 0 && /^##\s/.test(line));
    const intro = firstHeading < 0 ? lines.length : firstHeading;
    let last = -1;
    for (let i = 0; i < intro; i++) if (lines[i]!.startsWith('- ')) last = i;
    if (last >= 0) {
      while (last + 1 < intro && lines[last + 1]!.startsWith('  ')) last++;
      lines = [...lines.slice(0, last + 1), ...INTRO_BULLET, ...lines.slice(last + 1)];
    }
  }
  const start = lines.findIndex((line) => line.trim() === HEADING);
  let next: string;
  if (start < 0) {
    next = `${lines.join('\n').trimEnd()}\n\n${text}`;
  } else {
    const rel = lines.slice(start + 1).findIndex((line) => /^##\s/.test(line));
    const end = rel < 0 ? lines.length : start + 1 + rel;
    next = [
      ...lines.slice(0, start),
      text.trimEnd(),
      ...(end < lines.length ? ['', ...lines.slice(end)] : []),
    ].join('\n');
  }
  fs.writeFileSync(DOC, `${next.trimEnd()}\n`);
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const options = readOptions();
  const deadline = setTimeout(
    () => void abort(`hard timeout of ${options.timeoutSeconds} s reached`),
    options.timeoutSeconds * 1000,
  );
  deadline.unref();
  process.once('SIGINT', () => void abort('interrupted'));
  process.once('SIGTERM', () => void abort('terminated'));
  process.on('unhandledRejection', (reason) => void abort(reason));

  const server = new URL(options.serverUrl);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(server.hostname) && server.hostname !== '') {
    throw new Error(`BENCH_DATABASE_URL must point to loopback, not '${server.hostname}'`);
  }
  console.log(
    `dashboard benchmark: ${f0(options.tickets)} tickets over ${PERIOD_DAYS} days, ` +
      `${options.requests} requests per scenario, concurrency ${options.concurrency}`,
  );

  // Fresh database, dropped at the end whatever happens.
  const dbName = `zapdesk_bench_dashboard_${crypto.randomBytes(5).toString('hex')}`;
  const maintenance = new pg.Client({ connectionString: options.serverUrl });
  await maintenance.connect();
  await maintenance.query(`create database ${dbName}`);
  await maintenance.end();
  onTeardown('drop database', async () => {
    if (options.keep) {
      console.log(`kept the database ${dbName} (drop it with: dropdb -h 127.0.0.1 -U postgres ${dbName})`);
      return;
    }
    const c = new pg.Client({ connectionString: options.serverUrl });
    await c.connect();
    try {
      await c.query(`drop database if exists ${dbName} with (force)`);
    } finally {
      await c.end();
    }
  });
  const dbUrl = new URL(options.serverUrl);
  dbUrl.pathname = `/${dbName}`;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-dashboard-'));
  onTeardown('data dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SESSION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    HOST: '127.0.0.1',
  });
  const database = await openDatabase({ url: dbUrl.toString() });
  onTeardown('app database pool', () => database.close());
  await database.migrate();
  await seedPlans(database.db);
  const ref = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
  ref.on('error', () => {});
  onTeardown('reference pool', () => ref.end());

  const app = await buildApp({ config, database, secrets: loadSecrets(config), logger: false });
  onTeardown('app', () => app.close());

  // Seed.
  const seedStarted = performance.now();
  const sql = new pg.Client({ connectionString: dbUrl.toString() });
  await sql.connect();
  onTeardown('seed connection', () => sql.end());
  const main = await seedCompany(app, sql, {
    tickets: options.tickets,
    seed: 0.42,
    numberOffset: 1_234_567,
    agents: AGENTS,
    online: ONLINE_AGENTS,
  });
  const second = await seedCompany(app, sql, {
    tickets: Math.max(1000, Math.round(options.tickets / 10)),
    seed: 0.17,
    numberOffset: 7_654_321,
    agents: 5,
    online: 2,
  });
  await sql.query('vacuum analyze');
  console.log(`seeded in ${f1((performance.now() - seedStarted) / 1000)} s (with VACUUM ANALYZE)`);

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const client = new Client(
    `http://127.0.0.1:${port}`,
    await tokenFor(app, main.admin, options.timeoutSeconds + 60),
  );

  const list = scenarios();
  // Sanity: every dashboard scenario answers exactly what the plain aggregates over the tickets answer
  // (the rollup and the partial days add up to the same figures), with the company's users only.
  for (const scenario of list.filter((x) => x.path === '/api/dashboard')) {
    await checkDashboard(client, ref, main.companyId, scenario);
  }

  await warmUp(client, list, options);
  const endLoad = await startLoad(ref);
  const results = await measureAll(client, list, options);
  const load = await endLoad();

  const bySlowest = [...results].sort((a, b) => b.sequential.latency.p99 - a.sequential.latency.p99);
  const over = bySlowest.filter((r) => r.sequential.latency.p99 >= TARGET_P99_MS).length;
  const toExplain = bySlowest.slice(0, Math.min(EXPLAIN_AT_MOST, Math.max(EXPLAIN_AT_LEAST, over)));
  const plans: Plan[] = [];
  for (const r of toExplain) {
    for (const plan of await explain(client, ref, r.scenario)) {
      plans.push(plan);
      console.log(
        `\n--- EXPLAIN (ANALYZE, BUFFERS): ${plan.scenario}, ${plan.kind} statement ---\n${plan.text}`,
      );
    }
  }

  const env = await facts(ref, main, second);
  const text = section(options, env, load, results, plans);
  console.log('');
  console.log(resultTable(results, options.concurrency).join('\n'));
  console.log('');
  console.log(planTable(plans).join('\n'));
  console.log('');
  console.log(
    `machine: nproc ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB, Node ${env.node}; ${env.postgres}; ` +
      env.settings.map(([k, v]) => `${k}=${v}`).join(' '),
  );
  console.log(`data: ${env.volumes}`);
  console.log(`load: ${loadText(load)}`);
  if (options.write) {
    writeSection(text);
    console.log(`wrote the '${HEADING.slice(3)}' section of ${path.relative(process.cwd(), DOC)}`);
  }
  clearTimeout(deadline);
  await teardown();
}

main().then(
  () => process.exit(0),
  (error: unknown) => abort(error),
);
