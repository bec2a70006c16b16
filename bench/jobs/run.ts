/**
 * Job queue drain rate (bench/jobs): a backlog of queue-chatbot jobs — one per new customer, each
 * greeting with the connection's menu through the simulator driver — queued while no worker ran (a
 * node that was down), then drained by one node's workers. Reports jobs per second and CPU ms per
 * job, on PGlite (in memory) and on a Postgres server, and rewrites its section of
 * docs/benchmarks.md unless `--no-write`.
 *
 *   npx tsx --conditions=source bench/jobs/run.ts [--jobs 400] [--backends pglite,postgres] [--no-write]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { loadSecrets } from '../../apps/server/src/lib/secrets.js';
import { bearer, createCompany, createQueue, createUser } from '../../apps/server/src/test/factories.js';
import { backendJiffies } from '../support/cpu.js';
import { openBenchDatabase } from '../support/database.js';
import { f0, f1, f2 } from '../support/load.js';
import { writeSection } from '../support/report.js';

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/benchmarks.md');
const SECTION = 'Job queue drain (bench/jobs)';
const MENU = 'Olá! Escolha um setor:\n\n*1* - Suporte\n*2* - Vendas';
const JIFFY_MS = 10;

interface Result {
  backend: 'pglite' | 'postgres';
  jobs: number;
  wallMs: number;
  nodeCpuMs: number;
  /** Postgres backends of the benchmark database (Postgres only). */
  postgresCpuMs: number | undefined;
  claims: number;
}

/** Queues `jobs` chatbot jobs with the workers off, then measures one node draining them. */
async function run(backend: Result['backend'], jobs: number): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-jobs-'));
  const { database, url, drop } = await openBenchDatabase(backend, 'jobs');
  const ref = url ? new pg.Pool({ connectionString: url, max: 1 }) : undefined;
  try {
    await database.migrate();
    await seedPlans(database.db);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET: crypto.randomBytes(32).toString('hex'),
      SESSION_KEY: crypto.randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web'),
    });
    const app = await buildApp({ config, database, secrets: loadSecrets(config), logger: false });
    await app.ready();
    try {
      const companyId = await createCompany(app, { plan: { users: 2, connections: 1, queues: 2 } });
      const admin = await createUser(app, companyId, { profile: 'admin' });
      const queueIds = [
        await createQueue(app, companyId, 'Suporte'),
        await createQueue(app, companyId, 'Vendas'),
      ];
      const created = await app.inject({
        method: 'POST',
        url: '/api/whatsapp',
        headers: bearer(admin),
        payload: { name: 'Bot', provider: 'simulator', queueIds, greetingMessage: 'Olá! Escolha um setor:' },
      });
      if (created.statusCode !== 201) throw new Error(`connection: ${created.body}`);
      const whatsappId = created.json().id as number;
      const customers = Array.from({ length: jobs }, (_, i) => `5511987${String(i).padStart(6, '0')}`);
      for (const from of customers) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/simulator/${whatsappId}/messages`,
          headers: bearer(admin),
          payload: { from, body: 'Oi' },
        });
        if (res.statusCode !== 201) throw new Error(`inject: ${res.body}`);
      }

      const before = app.jobs.counters;
      const backends0 = ref ? await backendJiffies(ref) : undefined;
      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      await app.jobs.work();
      await app.jobs.idle();
      const wallMs = performance.now() - wall0;
      const cpu = process.cpuUsage(cpu0);
      const backends1 = ref ? await backendJiffies(ref) : undefined;
      const after = app.jobs.counters;

      const ran = after.ran - before.ran;
      if (ran !== jobs) throw new Error(`ran ${ran} jobs, expected ${jobs}`);
      for (const from of customers) {
        const got = app.simulator.outbox(whatsappId, from).map((m) => m.body);
        if (got.length !== 1 || got[0] !== MENU)
          throw new Error(`customer ${from} got ${JSON.stringify(got)}`);
      }
      let postgresCpuMs: number | undefined;
      if (backends0 && backends1) {
        let jiffies = 0;
        for (const [pid, used] of backends1) jiffies += used - (backends0.get(pid) ?? 0);
        postgresCpuMs = jiffies * JIFFY_MS;
      }
      return {
        backend,
        jobs,
        wallMs,
        nodeCpuMs: (cpu.user + cpu.system) / 1000,
        postgresCpuMs,
        claims: after.claims - before.claims,
      };
    } finally {
      await app.close();
    }
  } finally {
    await ref?.end();
    await database.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function section(results: Result[], jobs: number): string {
  const cpus = os.cpus();
  const speedups = results.map((r) => f0(r.jobs / (r.wallMs / 1000))).join(' and ');
  const rows = results.map((r) => {
    const perSecond = r.jobs / (r.wallMs / 1000);
    return `| ${r.backend} | ${f0(r.jobs)} | ${f1(r.wallMs / 1000)} | **${f0(perSecond)}** | ${f2(r.nodeCpuMs / r.jobs)} | ${
      r.postgresCpuMs === undefined ? '–' : f2(r.postgresCpuMs / r.jobs)
    } | ${f0(r.claims)} | ${f0(r.jobs)} s |`;
  });
  return [
    `## ${SECTION}`,
    '',
    `A backlog of ${f0(jobs)} queue-chatbot jobs (\`queue-bot\`), one per new customer on a connection with two queues and a greeting, queued while no worker ran (a node that was down: the inbound pipeline stores each message and its job in one transaction), then drained by one node's workers (\`JobQueue.work()\` until \`idle()\`). Each job re-reads its ticket, sends the greeting menu through the simulator driver (stored outbound message, driver call, ack) and emits its events. Every customer is checked to have received the menu exactly once. *Node CPU* is this process (server and load generator); *Postgres CPU* the backends of the benchmark database (Linux /proc, same machine). The reference column is the time the same backlog took before the job work, when pg-boss's \`work()\` loop waited its 1 s polling interval after every fetch of one job: one job per second per node.`,
    '',
    'Run it (under a minute; the Postgres database is created on the server and dropped at the end; this section is rewritten unless `--no-write`):',
    '',
    '```sh',
    'npx tsx --conditions=source bench/jobs/run.ts [--jobs 400] [--backends pglite,postgres] [--no-write]',
    '# BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server',
    '```',
    '',
    `Last run: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}; \`nproc\` ${os.availableParallelism()} (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}; worker concurrency 8 per queue (the default of \`define\`). The machine was shared with other work during the run.`,
    '',
    '| database | jobs | drain s | jobs/s | Node CPU ms / job | Postgres CPU ms / job | claims | before (1 job/s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `On PGlite the database runs inside the Node process (WebAssembly, one query at a time), so its CPU is in the Node column and the workers' parallelism buys little; on Postgres the parallel jobs overlap their round trips. The backlog drains ${speedups} times faster than at one job per second, limited by CPU (two cores shared by Node and the database).`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string', default: '400' },
      backends: { type: 'string', default: 'pglite,postgres' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const jobs = Number(values.jobs);
  if (!Number.isInteger(jobs) || jobs < 1 || jobs > 100_000) throw new Error('--jobs: 1..100000');
  const backends = values.backends.split(',').map((b) => b.trim());
  const results: Result[] = [];
  for (const backend of backends) {
    if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`unknown backend ${backend}`);
    const result = await run(backend, jobs);
    console.log(
      `${backend}: ${jobs} jobs in ${f1(result.wallMs / 1000)} s = ${f0(jobs / (result.wallMs / 1000))} jobs/s, ` +
        `Node CPU ${f2(result.nodeCpuMs / jobs)} ms/job` +
        (result.postgresCpuMs === undefined
          ? ''
          : `, Postgres CPU ${f2(result.postgresCpuMs / jobs)} ms/job`),
    );
    results.push(result);
  }
  const text = section(results, jobs);
  if (values['no-write']) console.log(text);
  else writeSection(DOC, `## ${SECTION}`, text);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
