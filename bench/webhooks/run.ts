import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { count, eq } from 'drizzle-orm';
import { webhookDeliveries } from '../../apps/server/src/db/schema/index.js';
import { bearer, createCompany, createUser, type TestUser } from '../../apps/server/src/test/factories.js';
import { createConnection, drainJobs, injectMessage, openBenchApp } from '../support/app.js';
import { lastRunLine } from '../support/facts.js';
import { f0, f1, f2 } from '../support/load.js';
import { benchArgs, countOption, runBench, runPerBackend } from '../support/options.js';
import { commandBlock, writeOrPrint } from '../support/report.js';

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
    const bench = await openBenchApp(backend, 'hooks', { WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    const { app } = bench;
    try {
      const setup = async (withHooks: boolean) => {
        const companyId = await createCompany(app);
        const admin = await createUser(app, companyId, { profile: 'admin' });
        const whatsappId = await createConnection(app, admin, { name: 'Loja', provider: 'simulator' });
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
        return { admin, whatsappId };
      };
      const ingest = async (admin: TestUser, whatsappId: number, prefix: string) => {
        const start = performance.now();
        for (let i = 0; i < messages; i++) {
          await injectMessage(app, admin, whatsappId, {
            from: `55119${prefix}${String(i).padStart(6, '0')}`,
            body: 'Oi',
          });
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

      const { wallMs: drainMs, cpu } = await drainJobs(app);
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
      await bench.close();
    }
  } finally {
    await new Promise((resolve) => receiver.close(resolve));
  }
}

function section(results: Result[], messages: number): string {
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
    ...commandBlock(
      [
        'npx tsx --conditions=source bench/webhooks/run.ts [--messages 200] [--backends pglite,postgres] [--no-write]',
      ],
      false,
    ),
    '',
    `${lastRunLine()}. The machine was shared with other work during the run.`,
    '',
    '| database | customers | ingest ms (no webhooks) | ingest ms (2 webhooks) | deliveries | drain s | deliveries/s | Node CPU ms / delivery |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `Each stored delivery is one row and one pg-boss job written separately (the ticket-created rule needs to know whether the previous row was new), so the inbound cost grows with webhooks × events; on PGlite that work also queues behind the next inbound request in the one embedded backend. Batching the rows and the jobs of one event into one statement each is the next step if a company's webhooks ever weigh on its inbound path. Delivery runs at the worker concurrency against a receiver that answers at once; a slow receiver holds a worker for up to its 10 s timeout.`,
    '',
  ].join('\n');
}

/** The console line of one backend's result (messages: the run's size). */
const summary =
  (_messages: number) =>
  (backend: string, r: Result): string =>
    `${backend}: ingest ${f2(r.plainMs)} ms → ${f2(r.hookedMs)} ms with webhooks; ` +
    `${r.deliveries} deliveries in ${f1(r.drainMs / 1000)} s`;

async function main(): Promise<void> {
  const values = benchArgs({ messages: '200', backends: 'pglite,postgres' }, ['no-write']);
  const messages = countOption('messages', values.messages, 1, 100_000);
  const results = await runPerBackend(
    values.backends,
    (backend) => run(backend, messages),
    summary(messages),
  );
  const text = section(results, messages);
  writeOrPrint(!values['no-write'], `## ${SECTION}`, text);
}

runBench(main);
