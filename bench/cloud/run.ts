/**
 * Cloud API webhook (bench/cloud): N signed webhooks, each one customer's text message, posted to a
 * cloud connection (signature check over the raw body, validation, durable store as a job: the
 * latency Meta waits for its 200), then the backlog of jobs drained into tickets by the pipeline.
 * Reports webhook answer percentiles and messages per second on PGlite (in memory) and on a
 * Postgres server; prints a markdown table for docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/cloud/run.ts [--webhooks 300] [--backends pglite,postgres]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { count, eq } from 'drizzle-orm';
import { FakeGraphApi, sign, webhook } from '../../apps/server/src/channels/cloud/fake-graph-api.js';
import { messages } from '../../apps/server/src/db/schema/index.js';
import { bearer, createCompany, createUser } from '../../apps/server/src/test/factories.js';
import { createConnection, openBenchApp } from '../support/app.js';
import { f0, f1 } from '../support/load.js';
import { benchArgs } from '../support/options.js';
import { stats } from '../support/stats.js';

type Backend = 'pglite' | 'postgres';
const SECRET = 'bench-app-secret';

async function run(backend: Backend, n: number) {
  const fake = new FakeGraphApi();
  const origin = await fake.start();
  const bench = await openBenchApp(backend, 'cloud', { CLOUD_API_URL: origin });
  const { app } = bench;
  try {
    const companyId = await createCompany(app);
    const admin = await createUser(app, companyId, { profile: 'admin' });
    const id = await createConnection(app, admin, { name: 'Cloud', provider: 'cloud' });
    await app.inject({
      method: 'PUT',
      url: `/api/whatsapp/${id}/cloud`,
      headers: bearer(admin),
      payload: {
        phoneNumberId: fake.phoneNumberId,
        wabaId: fake.wabaId,
        accessToken: fake.token,
        appSecret: SECRET,
      },
    });
    const latencies: number[] = [];
    for (let i = 0; i < n; i++) {
      const from = `5511${String(900000000 + i)}`;
      const raw = JSON.stringify(
        webhook(fake.phoneNumberId, {
          contacts: [{ wa_id: from, name: `Cliente ${i}` }],
          messages: [
            {
              from,
              id: `wamid.bench${i}${crypto.randomBytes(6).toString('hex')}`,
              timestamp: String(Math.floor(Date.now() / 1000)),
              type: 'text',
              text: { body: `Olá, mensagem ${i}` },
            },
          ],
        }),
      );
      const started = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/cloud/webhook/${id}`,
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': sign(raw, SECRET) },
        payload: raw,
      });
      latencies.push(performance.now() - started);
      if (res.statusCode !== 200) throw new Error(`webhook ${res.statusCode} ${res.body}`);
    }
    const drainStart = performance.now();
    await app.jobs.drain();
    const drainMs = performance.now() - drainStart;
    const [stored] = await app.ctx.db
      .select({ n: count() })
      .from(messages)
      .where(eq(messages.whatsappId, id));
    if (stored?.n !== n) throw new Error(`stored ${stored?.n} of ${n}`);
    return { backend, n, ...stats(latencies), drainMs, perSecond: (n / drainMs) * 1000 };
  } finally {
    await bench.close();
    await fake.stop();
  }
}

const values = benchArgs({ webhooks: '300', backends: 'pglite,postgres' });
const rows = [];
for (const backend of values.backends.split(',') as Backend[])
  rows.push(await run(backend, Number(values.webhooks)));
console.log(`Run: ${new Date().toISOString()}; nproc ${os.cpus().length}, Node ${process.version}\n`);
console.log('| database | webhooks | answer p50 ms | answer p95 ms | answer max ms | drain s | messages/s |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of rows)
  console.log(
    `| ${r.backend} | ${r.n} | ${f1(r.p50)} | ${f1(r.p95)} | ${f1(r.max)} | ${f1(r.drainMs / 1000)} | **${f0(r.perSecond)}** |`,
  );
process.exit(0);
