/**
 * Dashboard latency benchmark (issue 5, 'Done when': `GET /api/dashboard` answers under 100 ms at p99
 * over 100,000 tickets). One company with N tickets spread over 180 days (realistic accepted/closed
 * times, statuses, ~20 agents, contacts created over the period, a few thousand ratings) plus a smaller
 * second company, seeded with set-based SQL on a fresh Postgres database and ANALYZEd; then
 * `GET /api/dashboard` (7, 30, 90 days, a 180-day range) and the two charts (`ticketsUsers`,
 * `ticketsDay` per day and per hour) measured over HTTP on loopback, sequential and with a few
 * requests in flight. Prints p50/p95/p99/max, the EXPLAIN (ANALYZE, BUFFERS) plans of the slowest
 * scenarios' queries, and rewrites the 'Dashboard (bench/dashboard)' section of docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/dashboard/run.ts [--tickets 100000] [--requests 200]
 *     [--concurrency 4] [--timeout 1200] [--no-write]
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure, interruption or timeout.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
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
import { backendJiffies, machineJiffies } from '../support/cpu.js';
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
/** Issue 5: GET /api/dashboard under 100 ms at p99 over 100,000 tickets. */
const TARGET_P99_MS = 100;
const WARMUP_PER_SCENARIO = 10;
const PERIOD_DAYS = 180;
const AGENTS = 19;
const ONLINE_AGENTS = 7;
const EXPLAIN_AT_LEAST = 2;
const EXPLAIN_AT_MOST = 4;

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  tickets: number;
  requests: number;
  concurrency: number;
  timeoutSeconds: number;
  write: boolean;
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
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/dashboard/run.ts [--tickets N] [--requests R] [--concurrency C]\n' +
        '  [--timeout seconds] [--no-write]',
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
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}

// ---------------------------------------------------------------------------------------------
// Teardown: every resource registers its release; they run in reverse order, once, even on failure.

const { onTeardown, teardown, abort } = createTeardown('dashboard benchmark');

// ---------------------------------------------------------------------------------------------
// SQL recorder: the app's queries (through its pg.Pool) with their text, values and duration.

installQueryRecorder();

type QueryKind = 'counters' | 'attendants' | 'chart' | 'other';
/** Which dashboard statement a recorded query is (the rest: auth guard and the like). */
function queryKind(text: string): QueryKind {
  if (/"supportHappening"/.test(text)) return 'counters';
  if (/from users u\s+left join/i.test(text)) return 'attendants';
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

  // Tickets: ticket g belongs to contact 1 + (g - 1) % contacts, so a live ticket (only g <= contacts
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
    const sqlMs: Record<QueryKind, number> = { counters: 0, attendants: 0, chart: 0, other: 0 };
    for (const q of recorder.queries) sqlMs[queryKind(q.text)] += q.ms / options.requests;
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
// Load during the measurements (Linux /proc; NaN elsewhere)

interface Load {
  machine: number;
  node: number;
  postgres: number;
  other: number;
}

async function startLoad(ref: pg.Pool): Promise<() => Promise<Load>> {
  const machine0 = machineJiffies();
  const first = await backendJiffies(ref);
  const last = new Map(first);
  let sampling = Promise.resolve();
  const sample = () => {
    sampling = sampling
      .then(() => backendJiffies(ref))
      .then((now) => {
        for (const [pid, used] of now) last.set(pid, used);
      })
      .catch(() => {});
  };
  const timer = setInterval(sample, 500);
  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  return async () => {
    clearInterval(timer);
    sample();
    await sampling;
    const wallMs = performance.now() - wall0;
    const cpu = process.cpuUsage(cpu0);
    const machine1 = machineJiffies();
    let pgJiffies = 0;
    for (const [pid, used] of last) pgJiffies += used - (first.get(pid) ?? 0);
    let hz = 100;
    try {
      hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      /* USER_HZ is 100 almost everywhere */
    }
    const coreMs = wallMs * os.availableParallelism();
    const node = (cpu.user + cpu.system) / 1000 / coreMs;
    const postgres = (pgJiffies * 1000) / hz / coreMs;
    const machine =
      machine0 && machine1 && machine1.total > machine0.total
        ? (machine1.busy - machine0.busy) / (machine1.total - machine0.total)
        : Number.NaN;
    return { machine, node, postgres, other: Math.max(0, machine - node - postgres) };
  };
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

const pct = (n: number) => (Number.isFinite(n) ? `${Math.round(n * 100)}%` : '-');
const loadText = (load: Load) =>
  `machine ${pct(load.machine)} busy (of all cores): this Node process (server and load generator) ` +
  `${pct(load.node)}, the database's Postgres backends ${pct(load.postgres)}, other work ${pct(load.other)}`;
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');
const f1 = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '-');
const mark = (p99: number) => (p99 < TARGET_P99_MS ? f1(p99) : `**${f1(p99)}**`);
const sqlText = (r: ScenarioResult) =>
  r.scenario.path === '/api/dashboard'
    ? `${f1(r.sqlMs.counters)} / ${f1(r.sqlMs.attendants)} / ${f1(r.sqlMs.other)}`
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
    '`GET /api/dashboard` (counters and attendants: two statements) and its two charts ' +
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
      "request of the app's queries in the sequential run, seen from the app's `pg` pool: counters / " +
      'attendants / the rest (auth guard) for the dashboard, chart / the rest for the charts. Server and load ' +
      'generator share one Node process; Postgres runs on the same machine.',
    '',
    'Run it (a few minutes; a fresh database is created on the server and dropped at the end; this section is ' +
      'rewritten with the new figures unless `--no-write`):',
    '',
    '```sh',
    'npx tsx --conditions=source bench/dashboard/run.ts [--tickets 100000] [--requests 200] [--concurrency 4] \\',
    '  [--timeout 1200] [--no-write]',
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
    `Target (issue 5: \`GET /api/dashboard\` under ${TARGET_P99_MS} ms at p99 over 100,000 tickets): ` +
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
    ...(dashboard.some(over) && plans.some((p) => p.kind === 'counters' && p.seqScans.includes('tickets'))
      ? [
          '',
          "Why: a long period holds most of the company's tickets (half of them for 90 days, all for 180), so " +
            'the planner rightly prefers sequential scans to the `(company_id, closed_at)` and ' +
            '`(company_id, accepted_at)` indexes, which do not cover `status`, `accepted_at`, `created_at` or ' +
            '`user_id` and would need a heap visit per row. The counters statement scans `tickets` three times ' +
            '(supportFinished, avgSupportTime, avgWaitTime) and `contacts` once; the attendants statement scans ' +
            '`tickets` a fourth time; cost grows linearly with the tickets in the period. Fix (server, not done ' +
            'here): one pass over `tickets` for all of them (`count(*) filter (...)`, `avg(...) filter (...)` with ' +
            '`group by grouping sets ((user_id), ())` over `closed_at in period or accepted_at in period`), with ' +
            'covering indexes `(company_id, closed_at) include (status, accepted_at, user_id)` and ' +
            '`(company_id, accepted_at) include (created_at)` for index-only scans; for periods of months over ' +
            '100,000+ tickets, a per-company, per-local-day, per-user rollup (closed count, support seconds, ' +
            'accepted count, wait seconds, leads) kept up to date on accept/close, summed for whole days plus a ' +
            'live query for the partial edge days, makes the cost independent of the ticket count.',
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
  // Sanity: the 180-day range finishes as many tickets as the database holds closed in that range,
  // and the attendants are the company's users only.
  const range = list[3]!;
  const check = JSON.parse((await client.get(range)).body) as {
    counters: { supportFinished: number };
    attendants: unknown[];
  };
  const { rows: expected } = await ref.query<{ closed: number; users: number }>(
    `select (select count(*)::int from tickets where company_id = $1 and status = 'closed'
               and closed_at >= ($2::date::timestamp at time zone $4)
               and closed_at < (($3::date + 1)::timestamp at time zone $4)) as closed,
            (select count(*)::int from users where company_id = $1) as users`,
    [main.companyId, range.query.date_from, range.query.date_to, DASHBOARD_TIME_ZONE],
  );
  if (
    check.counters.supportFinished !== expected[0]!.closed ||
    check.attendants.length !== expected[0]!.users
  ) {
    throw new Error(
      `dashboard answered ${check.counters.supportFinished} finished and ${check.attendants.length} attendants, ` +
        `expected ${expected[0]!.closed} and ${expected[0]!.users}`,
    );
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
