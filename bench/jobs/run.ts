import { createCompany, createQueue, createUser } from '../../apps/server/src/test/factories.js';
import { createConnection, drainJobs, injectMessage, openBenchApp } from '../support/app.js';
import { backendJiffies, jiffiesBetween } from '../support/cpu.js';
import { lastRunLine } from '../support/facts.js';
import { f0, f1, f2 } from '../support/load.js';
import { benchArgs, countOption, runBench, runPerBackend } from '../support/options.js';
import { commandBlock, writeOrPrint } from '../support/report.js';

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
  const bench = await openBenchApp(backend, 'jobs');
  const { app, ref } = bench;
  try {
    const companyId = await createCompany(app, { plan: { users: 2, connections: 1, queues: 2 } });
    const admin = await createUser(app, companyId, { profile: 'admin' });
    const queueIds = [
      await createQueue(app, companyId, 'Suporte'),
      await createQueue(app, companyId, 'Vendas'),
    ];
    const whatsappId = await createConnection(app, admin, {
      name: 'Bot',
      provider: 'simulator',
      queueIds,
      greetingMessage: 'Olá! Escolha um setor:',
    });
    const customers = Array.from({ length: jobs }, (_, i) => `5511987${String(i).padStart(6, '0')}`);
    for (const from of customers) await injectMessage(app, admin, whatsappId, { from, body: 'Oi' });

    const before = app.jobs.counters;
    const backends0 = ref ? await backendJiffies(ref) : undefined;
    const { wallMs, cpu } = await drainJobs(app);
    const backends1 = ref ? await backendJiffies(ref) : undefined;
    const after = app.jobs.counters;

    const ran = after.ran - before.ran;
    if (ran !== jobs) throw new Error(`ran ${ran} jobs, expected ${jobs}`);
    for (const from of customers) {
      const got = app.simulator.outbox(whatsappId, from).map((m) => m.body);
      if (got.length !== 1 || got[0] !== MENU) throw new Error(`customer ${from} got ${JSON.stringify(got)}`);
    }
    let postgresCpuMs: number | undefined;
    if (backends0 && backends1) {
      postgresCpuMs = jiffiesBetween(backends0, backends1) * JIFFY_MS;
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
    await bench.close();
  }
}

function section(results: Result[], jobs: number): string {
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
    ...commandBlock([
      'npx tsx --conditions=source bench/jobs/run.ts [--jobs 400] [--backends pglite,postgres] [--no-write]',
    ]),
    '',
    `${lastRunLine()}; worker concurrency 8 per queue (the default of \`define\`). The machine was shared with other work during the run.`,
    '',
    '| database | jobs | drain s | jobs/s | Node CPU ms / job | Postgres CPU ms / job | claims | before (1 job/s) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `On PGlite the database runs inside the Node process (WebAssembly, one query at a time), so its CPU is in the Node column and the workers' parallelism buys little; on Postgres the parallel jobs overlap their round trips. The backlog drains ${speedups} times faster than at one job per second, limited by CPU (two cores shared by Node and the database).`,
    '',
  ].join('\n');
}

/** The console line of one backend's result (jobs: the run's size). */
const summary =
  (jobs: number) =>
  (backend: string, result: Result): string =>
    `${backend}: ${jobs} jobs in ${f1(result.wallMs / 1000)} s = ${f0(jobs / (result.wallMs / 1000))} jobs/s, ` +
    `Node CPU ${f2(result.nodeCpuMs / jobs)} ms/job` +
    (result.postgresCpuMs === undefined ? '' : `, Postgres CPU ${f2(result.postgresCpuMs / jobs)} ms/job`);

async function main(): Promise<void> {
  const values = benchArgs({ jobs: '400', backends: 'pglite,postgres' }, ['no-write']);
  const jobs = countOption('jobs', values.jobs, 1, 100_000);
  const results = await runPerBackend(values.backends, (backend) => run(backend, jobs), summary(jobs));
  const text = section(results, jobs);
  writeOrPrint(!values['no-write'], `## ${SECTION}`, text);
}

runBench(main);
