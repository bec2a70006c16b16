/**
 * Outgoing webhooks (bench/webhooks): what webhooks add to the inbound path (each new customer's
 * first message emits contact, ticket and message events, stored as deliveries and queued in one
 * transaction), and how fast one node's workers deliver the backlog to a local receiver. On PGlite
 * (in memory) and on a Postgres server; rewrites its section of docs/benchmarks.md unless
 * `--no-write`.
 *
 *   npx tsx --conditions=source bench/webhooks/run.ts [--messages 200] [--backends pglite,postgres] [--no-write]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { webhookDeliveries } from '../../apps/server/src/db/schema/index.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { loadSecrets } from '../../apps/server/src/lib/secrets.js';
import { bearer, createCompany, createUser, type TestUser } from '../../apps/server/src/test/factories.js';
import { openBenchDatabase } from '../support/database.js';
import { f0, f1, f2 } from '../support/load.js';
import { writeSection } from '../support/report.js';

const DOC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/benchmarks.md');
const SECTION = 'Outgoing webhooks (bench/webhooks)';
const HOOKS = 2;
const EVENTS_PER_MESSAGE = 3;

interface Result {
  backend: 'pglite' | 'postgres';
  messages: number;
  /** Ingest ms per message without and with webhooks (their deliveries stored and queued). */
  plainMs: number;
  hookedMs: number;
  deliveries: number;
  drainMs: number;
  nodeCpuMsPerDelivery: number;
}

async function run(backend: Result['backend'], messages: number): Promise<Result> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-hooks-'));
  const { database, drop } = await openBenchDatabase(backend, 'hooks');
  let received = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
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
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    const app = await buildApp({ config, database, secrets: loadSecrets(config), logger: false });
    await app.ready();
    try {
      const setup = async (withHooks: boolean) => {
        const companyId = await createCompany(app);
        const admin = await createUser(app, companyId, { profile: 'admin' });
        const created = await app.inject({
          method: 'POST',
          url: '/api/whatsapp',
          headers: bearer(admin),
          payload: { name: 'Loja', provider: 'simulator' },
        });
        if (created.statusCode !== 201) throw new Error(`connection: ${created.body}`);
        for (let i = 0; withHooks && i < HOOKS; i++) {
          const hook = await app.inject({
            method: 'POST',
            url: '/api/webhooks',
            headers: bearer(admin),
            payload: {
              url: `${base}/h${i}`,
              events: ['message.created', 'ticket.created', 'contact.created'],
            },
          });
          if (hook.statusCode !== 201) throw new Error(`webhook: ${hook.body}`);
        }
        return { admin, whatsappId: created.json().id as number };
      };
      const ingest = async (admin: TestUser, whatsappId: number, prefix: string) => {
        const start = performance.now();
        for (let i = 0; i < messages; i++) {
          const res = await app.inject({
            method: 'POST',
            url: `/api/simulator/${whatsappId}/messages`,
            headers: bearer(admin),
            payload: { from: `55119${prefix}${String(i).padStart(6, '0')}`, body: 'Oi' },
          });
          if (res.statusCode !== 201) throw new Error(`inject: ${res.body}`);
        }
        await app.webhooks.settled();
        return (performance.now() - start) / messages;
      };
      const plain = await setup(false);
      const hooked = await setup(true);
      // Warm-up, then alternate so both sides see the same machine.
      await ingest(plain.admin, plain.whatsappId, '10');
      const plainMs = await ingest(plain.admin, plain.whatsappId, '11');
      const hookedMs = await ingest(hooked.admin, hooked.whatsappId, '12');
      const [stored] = await app.ctx.db.select({ value: count() }).from(webhookDeliveries);
      const deliveries = stored?.value ?? 0;
      if (deliveries !== messages * HOOKS * EVENTS_PER_MESSAGE)
        throw new Error(`stored ${deliveries} deliveries, expected ${messages * HOOKS * EVENTS_PER_MESSAGE}`);

      const cpu0 = process.cpuUsage();
      const wall0 = performance.now();
      await app.jobs.work();
      await app.jobs.idle();
      const drainMs = performance.now() - wall0;
      const cpu = process.cpuUsage(cpu0);
      const [done] = await app.ctx.db
        .select({ value: count() })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.status, 'delivered'));
      if (done?.value !== deliveries || received !== deliveries)
        throw new Error(`delivered ${done?.value}, received ${received}, expected ${deliveries}`);
      return {
        backend,
        messages,
        plainMs,
        hookedMs,
        deliveries,
        drainMs,
        nodeCpuMsPerDelivery: (cpu.user + cpu.system) / 1000 / deliveries,
      };
    } finally {
      await app.close();
    }
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
    await database.close();
    await drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function section(results: Result[], messages: number): string {
  const cpus = os.cpus();
  const rows = results.map(
    (r) =>
      `| ${r.backend} | ${f0(r.messages)} | ${f2(r.plainMs)} | ${f2(r.hookedMs)} | ${f0(r.deliveries)} | ${f1(r.drainMs / 1000)} | **${f0(
        r.deliveries / (r.drainMs / 1000),
      )}** | ${f2(r.nodeCpuMsPerDelivery)} |`,
  );
  return [
    `## ${SECTION}`,
    '',
    `${f0(messages)} new customers each send a first message through the simulator (a contact, a ticket and a message are created, so three events) to a company without webhooks and to one with ${HOOKS} webhooks subscribed to those events: the *ingest* columns are the mean time of one inbound request, the second including the storing and queuing of its ${HOOKS * EVENTS_PER_MESSAGE} deliveries (one transaction after the emission). Then one node's workers deliver the backlog to a local HTTP receiver answering 200 (signing each body, one job per try, concurrency 8): every delivery is checked delivered and received once. *Node CPU* is this process (server, receiver and load generator).`,
    '',
    'Run it (under a minute; the Postgres database is created on the server and dropped at the end; this section is rewritten unless `--no-write`):',
    '',
    '```sh',
    'npx tsx --conditions=source bench/webhooks/run.ts [--messages 200] [--backends pglite,postgres] [--no-write]',
    '```',
    '',
    `Last run: ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}; \`nproc\` ${os.availableParallelism()} (${cpus[0]?.model.trim() ?? 'unknown'}), Node ${process.version}. The machine was shared with other work during the run.`,
    '',
    '| database | customers | ingest ms (no webhooks) | ingest ms (2 webhooks) | deliveries | drain s | deliveries/s | Node CPU ms / delivery |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Each stored delivery is one row and one pg-boss job written separately (the ticket-created rule needs to know whether the previous row was new), so the inbound cost grows with webhooks × events; on PGlite that work also queues behind the next inbound request in the one embedded backend. Batching the rows and the jobs of one event into one statement each is the next step if a company's webhooks ever weigh on its inbound path. Delivery runs at the worker concurrency against a receiver that answers at once; a slow receiver holds a worker for up to its 10 s timeout.`,
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      messages: { type: 'string', default: '200' },
      backends: { type: 'string', default: 'pglite,postgres' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  const messages = Number(values.messages);
  if (!Number.isInteger(messages) || messages < 1 || messages > 100_000)
    throw new Error('--messages: 1..100000');
  const results: Result[] = [];
  for (const backend of values.backends.split(',').map((b) => b.trim())) {
    if (backend !== 'pglite' && backend !== 'postgres') throw new Error(`unknown backend ${backend}`);
    const r = await run(backend, messages);
    console.log(
      `${backend}: ingest ${f2(r.plainMs)} ms → ${f2(r.hookedMs)} ms with webhooks; ` +
        `${r.deliveries} deliveries in ${f1(r.drainMs / 1000)} s`,
    );
    results.push(r);
  }
  const text = section(results, messages);
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
