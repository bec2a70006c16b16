/**
 * Reports latency benchmark (the aim: every `GET /api/reports/*` under 500 ms). One company with N
 * tickets' events over a year (default 1,000,000 tickets: created, first assignment, first reply,
 * transfers, resolution, reopenings; ~20 agents, 8 queues, 3 connections, ratings and tags), seeded
 * with set-based SQL (generate_series, triggers off while seeding) on a fresh Postgres database and
 * ANALYZEd; then each report over 30 days, 90 days and the whole year, with and without filters and
 * as a file, requested sequentially over HTTP on loopback. Prints and writes to docs/benchmarks.md
 * ("Reports (bench/reports)") p50/p95/max latency and the CPU per request of the app process and of
 * the Postgres backends.
 *
 *   npx tsx --conditions=source bench/reports/run.ts [--tickets 1000000] [--requests 20]
 *     [--timeout 3600] [--no-write] [--keep-database] [--reuse-db NAME [--reroll]] [--only TEXT]
 *
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure, interruption or timeout.
 * `--reuse-db NAME` seeds the database NAME once (created when missing, never dropped) and later runs
 * reuse its company, migrating it first; `--reroll` empties and rebuilds its rollups (after a change
 * to them). `--only TEXT` runs only the scenarios whose name contains TEXT.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { rollReports } from '../../apps/server/src/modules/reports/rollups.js';
import { createCompany, createUser, tokenFor } from '../../apps/server/src/test/factories.js';
import { openServerBench, seedConnection } from '../support/app.js';
import { backendCpuMsSince, backendJiffies } from '../support/cpu.js';
import { lastRunLine, loadAverage } from '../support/facts.js';
import { guardServerRun, startHttpBench } from '../support/http-bench.js';
import { f0, f1, thisProcessCpuMs } from '../support/load.js';
import { benchArgs, databaseServer, intOption, runBench } from '../support/options.js';
import { commandBlock, writeOrPrint } from '../support/report.js';
import { stats } from '../support/stats.js';

const { onTeardown, teardown, abort } = startHttpBench('reports benchmark');
const DAYS = 365;
const AGENTS = 20;
const QUEUES = 8;
const TARGET_MS = 500;

function readOptions() {
  const values = benchArgs(
    { tickets: '1000000', requests: '20', timeout: '3600', 'reuse-db': '', only: '' },
    ['no-write', 'keep-database', 'reroll', 'help'],
  );
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/reports/run.ts [--tickets N] [--requests R] [--timeout s] [--no-write] [--keep-database] [--reuse-db NAME [--reroll]] [--only TEXT]',
    );
    process.exit(0);
  }
  return {
    tickets: intOption('tickets', values.tickets, 1000, 5_000_000),
    requests: intOption('requests', values.requests, 3, 1000),
    timeoutSeconds: intOption('timeout', values.timeout, 30, 7200),
    write: !values['no-write'],
    keep: values['keep-database'],
    reuse: values['reuse-db'] || undefined,
    reroll: values.reroll,
    only: values.only,
    serverUrl: databaseServer(),
  };
}

/**
 * Seeds `tickets` closed tickets of the company over the last year and their events: created, a first
 * assignment (90%), a first reply (80%), a transfer (10%), a resolution (85%) and a reopening (5%),
 * with random agents, queues and connections; ratings for a third of the resolved ones; tags on a
 * fifth. Triggers (events, dashboard rollup) and foreign-key checks are off for the seeding session.
 */
async function seed(sql: pg.Client, companyId: number, tickets: number) {
  await sql.query('set session_replication_role = replica');
  await sql.query('select setseed(0.27)');
  const users = (
    await sql.query<{ id: number }>(
      `insert into users (company_id, name, email, password_hash, profile)
       select $1::int, 'Agent ' || g, 'bench-report-' || $1::int || '-' || g || '@example.test', 'x', 'user'
       from generate_series(1, $2::int) g returning id`,
      [companyId, AGENTS],
    )
  ).rows.map((r) => r.id);
  const queues = (
    await sql.query<{ id: number }>(
      `insert into queues (company_id, name, color) select $1::int, 'Queue ' || g, '#' || lpad(to_hex(g * 4099), 6, '0')
       from generate_series(1, $2::int) g returning id`,
      [companyId, QUEUES],
    )
  ).rows.map((r) => r.id);
  const whatsapps = (
    await sql.query<{ id: number }>(
      `insert into whatsapps (company_id, name, provider) select $1::int, 'W' || g, 'simulator'
       from generate_series(1, 3) g returning id`,
      [companyId],
    )
  ).rows.map((r) => r.id);
  const tags = (
    await sql.query<{ id: number }>(
      `insert into tags (company_id, name) select $1::int, 'Tag ' || g from generate_series(1, 4) g returning id`,
      [companyId],
    )
  ).rows.map((r) => r.id);
  const contact = (
    await sql.query<{ id: number }>(
      `insert into contacts (company_id, name, number) values ($1, 'Bench', '5511900000000') returning id`,
      [companyId],
    )
  ).rows[0]!.id;
  await sql.query(
    `create temp table seed as
     select g, now() - make_interval(secs => random() * $2::int * 86400) as created,
       ($3::int[])[1 + floor(random() * $4::int)::int] as agent,
       ($5::int[])[1 + floor(random() * $6::int)::int] as queue,
       ($7::int[])[1 + floor(random() * 3)::int] as whatsapp,
       random() as r1, random() as r2, random() as r3, random() as r4,
       (random() * 7200)::int as wait, (random() * 14400)::int as reply, (random() * 172800)::int as took
     from generate_series(1, $1::int) g`,
    [tickets, DAYS, users, AGENTS, queues, QUEUES, whatsapps],
  );
  await sql.query(
    `insert into tickets (company_id, contact_id, whatsapp_id, queue_id, user_id, status, created_at, updated_at,
       accepted_at, closed_at)
     select $1::int, $2::int, whatsapp, queue, agent, 'closed', created, created,
       created + make_interval(secs => wait), created + make_interval(secs => took)
     from seed order by g`,
    [companyId, contact],
  );
  await sql.query(
    `create temp table seeded as select row_number() over (order by id) as g, id from tickets where company_id = $1`,
    [companyId],
  );
  await sql.query(
    `insert into ticket_events (company_id, ticket_id, kind, at, user_id, queue_id, whatsapp_id, seconds)
     select $1::int, t.id, e.kind, e.at, e.user_id, s.queue, s.whatsapp, e.seconds
     from seed s join seeded t using (g)
     cross join lateral (values
       ('created', s.created, null::int, null::int, true),
       ('assigned', s.created + make_interval(secs => s.wait), s.agent, s.wait, s.r1 < 0.9),
       ('first_reply', s.created + make_interval(secs => s.reply), s.agent, s.reply, s.r2 < 0.8),
       ('transferred', s.created + make_interval(secs => s.reply + 60), s.agent, null::int, s.r3 < 0.1),
       ('resolved', s.created + make_interval(secs => s.took), s.agent, s.took, s.r4 < 0.85),
       ('reopened', s.created + make_interval(secs => s.took + 3600), null::int, null::int, s.r4 < 0.05)
     ) e(kind, at, user_id, seconds, happened)
     where e.happened`,
    [companyId],
  );
  await sql.query(
    `insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
     select $1::int, t.id, s.agent, 1 + floor(random() * 3)::int, s.created + make_interval(secs => s.took + 60)
     from seed s join seeded t using (g) where s.r4 < 0.28`,
    [companyId],
  );
  await sql.query(
    `insert into ticket_tags (company_id, ticket_id, tag_id)
     select $1::int, t.id, ($2::int[])[1 + (s.g % 4)::int] from seed s join seeded t using (g) where s.r1 > 0.8`,
    [companyId, tags],
  );
  await sql.query('set session_replication_role = origin');
  const events = (await sql.query<{ n: string }>('select count(*) as n from ticket_events')).rows[0]!.n;
  return { users, queues, whatsapps, tags, events: Number(events) };
}

interface SeededCompany {
  companyId: number;
  admin: { id: number; companyId: number; profile: 'admin' | 'user'; super: boolean };
  users: number[];
  queues: number[];
  whatsapps: number[];
  tags: number[];
  events: number;
}

/** The company a previous run seeded in this database (the one with the most tickets), if any. */
async function seededCompany(sql: pg.Client): Promise<SeededCompany | undefined> {
  const top = await sql.query<{ company_id: number }>(
    'select company_id from tickets group by company_id order by count(*) desc limit 1',
  );
  const companyId = top.rows[0]?.company_id;
  if (companyId === undefined) return undefined;
  const ids = async (query: string) =>
    (await sql.query<{ id: number }>(query, [companyId])).rows.map((r) => r.id);
  const [adminId] = await ids(
    `select id from users where company_id = $1 and profile = 'admin' order by id limit 1`,
  );
  if (adminId === undefined) return undefined;
  const events = (await sql.query<{ n: string }>('select count(*) as n from ticket_events')).rows[0]!.n;
  return {
    companyId,
    admin: { id: adminId, companyId, profile: 'admin', super: false },
    users: await ids(`select id from users where company_id = $1 and profile = 'user' order by id`),
    queues: await ids('select id from queues where company_id = $1 order by id'),
    whatsapps: await ids('select id from whatsapps where company_id = $1 order by id'),
    tags: await ids('select id from tags where company_id = $1 order by id'),
    events: Number(events),
  };
}

/** yyyy-MM-dd `days` before today (UTC; close enough for choosing periods). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

async function main(): Promise<void> {
  const options = readOptions();
  guardServerRun(options, abort);
  console.log(
    `reports benchmark: ${f0(options.tickets)} tickets over ${DAYS} days, ${options.requests} requests each`,
  );
  const { app, url, ref } = await openServerBench(options.serverUrl, 'zapdesk_bench_reports', onTeardown, {
    tag: 'reports',
    keep: options.keep,
    reuse: options.reuse,
  });
  const sql = await seedConnection(url, onTeardown);
  const found = options.reuse ? await seededCompany(sql) : undefined;
  let seedSeconds = 0;
  let company: SeededCompany;
  if (found) {
    company = found;
    console.log(`reusing ${options.reuse}: company ${found.companyId}, ${f0(found.events)} events`);
  } else {
    const started = performance.now();
    const companyId = await createCompany(app);
    const admin = await createUser(app, companyId, { profile: 'admin', name: 'Bench Admin' });
    company = { companyId, admin, ...(await seed(sql, companyId, options.tickets)) };
    await sql.query('vacuum analyze');
    seedSeconds = (performance.now() - started) / 1000;
    console.log(`seeded ${f0(company.events)} events in ${f1(seedSeconds)} s (with VACUUM ANALYZE)`);
  }
  // The rollups of every closed day (what the job and `npm run reports:backfill` do: from the mark
  // on, so a reused database rolls only what is missing), then ANALYZE.
  if (found && options.reroll)
    await sql.query('truncate report_rollups, report_handled, report_rollup_marks');
  const rollStarted = performance.now();
  if (await rollReports(app.ctx, company.companyId))
    await sql.query('vacuum analyze report_rollups, report_handled, report_rollup_marks');
  const rollSeconds = (performance.now() - rollStarted) / 1000;
  const rollRows = (
    await sql.query<{ n: string; h: string }>(
      'select (select count(*) from report_rollups) as n, (select count(*) from report_handled) as h',
    )
  ).rows[0]!;
  console.log(`rolled up in ${f1(rollSeconds)} s: ${rollRows.n} rollup rows, ${rollRows.h} handled rows`);
  const { admin, events: seededEvents } = company;
  const seeded = company;

  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const token = await tokenFor(app, admin, options.timeoutSeconds + 60);
  const today = daysAgo(0);
  const month = `from=${daysAgo(29)}&to=${today}`;
  const quarter = `from=${daysAgo(89)}&to=${today}`;
  const year = `from=${daysAgo(DAYS - 1)}&to=${today}`;
  const filters = `&queueIds=${seeded.queues.slice(0, 2).join(',')}&tagIds=${seeded.tags[0]}`;
  const scenarios: [string, string][] = [
    ['summary 30 days', `summary?${month}`],
    ['summary 90 days', `summary?${quarter}`],
    ['summary 365 days', `summary?${year}`],
    ['summary 365 days, 2 queues', `summary?${year}&queueIds=${seeded.queues.slice(0, 2).join(',')}`],
    ['summary 365 days, 1 agent', `summary?${year}&userIds=${seeded.users[0]}`],
    ['summary 365 days, 2 queues + tag', `summary?${year}${filters}`],
    ['summary 365 days, 1 connection', `summary?${year}&whatsappIds=${seeded.whatsapps[0]}`],
    ['agents 30 days', `agents?${month}`],
    ['agents 90 days', `agents?${quarter}`],
    ['agents 365 days', `agents?${year}`],
    ['agents 365 days, xlsx', `agents?${year}&format=xlsx`],
    ['queues 30 days', `queues?${month}`],
    ['queues 365 days', `queues?${year}`],
    ['queues 365 days, csv', `queues?${year}&format=csv`],
    ['heatmap 30 days', `heatmap?${month}`],
    ['heatmap 365 days', `heatmap?${year}`],
  ];
  const rows: string[] = [];
  for (const [name, path] of scenarios.filter(([n]) => n.includes(options.only))) {
    const get = async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/reports/${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = await res.arrayBuffer();
      if (res.status !== 200)
        throw new Error(`${name}: HTTP ${res.status} ${Buffer.from(body).toString().slice(0, 300)}`);
    };
    await get();
    const samples: number[] = [];
    const app0 = thisProcessCpuMs();
    const db0 = await backendJiffies(ref);
    for (let i = 0; i < options.requests; i++) {
      const t0 = performance.now();
      await get();
      samples.push(performance.now() - t0);
    }
    const dbCpu = (await backendCpuMsSince(ref, db0)) / options.requests;
    const appCpu = (thisProcessCpuMs() - app0) / options.requests;
    const s = stats(samples);
    const mark = s.p95 <= TARGET_MS ? '' : ' (over the aim)';
    console.log(
      `${name.padEnd(34)} p50 ${f1(s.p50)} p95 ${f1(s.p95)} max ${f1(s.max)} ms | CPU app ${f1(appCpu)} ms, Postgres ${f1(dbCpu)} ms`,
    );
    rows.push(
      `| ${name} | ${f1(s.p50)} | ${f1(s.p95)}${mark} | ${f1(s.max)} | ${f1(appCpu)} | ${f1(dbCpu)} |`,
    );
  }
  const text = [
    '## Reports (bench/reports)',
    '',
    `Every \`GET /api/reports/*\` over one company's ticket events, aim: under ${TARGET_MS} ms. ` +
      `${f0(options.tickets)} tickets over ${DAYS} days (${f0(seededEvents)} events, ${AGENTS} agents, ` +
      `${QUEUES} queues, 3 connections, ratings on 28% and tags on 20% of the tickets), seeded with ` +
      `generate_series ${found ? 'by an earlier run (--reuse-db)' : `in ${f1(seedSeconds)} s`}, rolled up in ${f1(rollSeconds)} s (${f0(Number(rollRows.n))} rollup and ` +
      `${f0(Number(rollRows.h))} handled rows); ${options.requests} sequential requests per scenario over HTTP on ` +
      'loopback (app and Postgres on the same machine). CPU is per request: the app process (Node) and the ' +
      'Postgres backends of the database.',
    '',
    ...commandBlock([`npx tsx --conditions=source bench/reports/run.ts --tickets ${options.tickets}`]),
    '',
    `${lastRunLine()}; load average ${loadAverage()} (a machine shared with other work: latencies include waiting for a core).`,
    '',
    '| scenario | p50 ms | p95 ms | max ms | app CPU ms | Postgres CPU ms |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n');
  writeOrPrint(options.write, '## Reports (bench/reports)', text);
}

runBench(main, abort, teardown);
