/** Set-up and steps shared by the tests of bots, flows and connection timers. */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { settings, tickets } from '../db/schema/index.js';
import { bearer, createTenant, injectMessage, type TenantFixture } from './factories.js';
import type { TestApp } from './test-app.js';

/** A tenant with a simulator connection (`whatsappId`). */
export interface ConnectedTenant extends TenantFixture {
  whatsappId: number;
}

/**
 * A new tenant whose simulator connection (named `Bots <now>`) serves its one queue, so tickets land
 * in it. Fails the test when the connection is refused.
 */
export async function openOneQueueTenant(app: FastifyInstance): Promise<ConnectedTenant> {
  const tenant = await createTenant(app);
  const res = await app.inject({
    method: 'POST',
    url: '/api/whatsapp',
    headers: bearer(tenant.admin),
    payload: { name: `Bots ${Date.now()}`, provider: 'simulator', queueIds: [tenant.queueId] },
  });
  expect(res.statusCode).toBe(201);
  return { ...tenant, whatsappId: res.json().id };
}

/**
 * Runs the queued jobs, then makes the delayed jobs named `job` due and runs them again, until
 * none is left (at most 20 rounds). With `onlyDelayed`, only jobs still waiting are moved.
 */
export async function flushJobs(t: TestApp, job: string, onlyDelayed = false): Promise<void> {
  const delayed = onlyDelayed ? ' and start_after > now()' : '';
  for (let i = 0; i < 20; i++) {
    await t.app.jobs.drain();
    const { rows } = await t.database.executor.executeSql(
      `update pgboss.job set start_after = now() - interval '1 second'
       where name = '${job}' and state = 'created'${delayed} returning id`,
    );
    if (!rows.length) return;
  }
}

/**
 * The customer `from` writes `body` (as Maria Souza) to the tenant's connection; `run` then works
 * the queued jobs. Answers the message's ticket and the bodies the business sent to `from` since.
 */
export async function customerSays(
  app: FastifyInstance,
  s: ConnectedTenant,
  from: string,
  body: string,
  run: () => Promise<unknown>,
) {
  const sent = app.simulator.outbox(s.whatsappId, from).length;
  const message = await injectMessage(app, s.admin, s.whatsappId, { from, body, name: 'Maria Souza' });
  await run();
  return {
    ticketId: message.ticketId,
    replies: app.simulator
      .outbox(s.whatsappId, from)
      .slice(sent)
      .map((item) => item.body),
  };
}

/** The stored row of ticket `id` (the test fails on its use when there is none). */
export async function ticketRow(app: FastifyInstance, id: number) {
  const [row] = await app.ctx.db.select().from(tickets).where(eq(tickets.id, id));
  return row!;
}

/** Sets (inserts or replaces) the company's setting `key`. */
export async function putSetting(app: FastifyInstance, companyId: number, key: string, value: string) {
  await app.ctx.db
    .insert(settings)
    .values({ companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value } });
}
