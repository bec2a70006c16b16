import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { bearer, createQueue, createTenant, type TenantFixture } from './factories.js';

/** A tenant of the queue chatbot's tests: its connection and the ids of its two queues. */
export interface BotTenant extends TenantFixture {
  whatsappId: number;
  support: number;
  sales: number;
}

/**
 * A tenant with queues 'Suporte' and 'Vendas' on one simulator connection named 'Bot' that serves
 * both; `connection` adds fields of the connection's body (its greetingMessage among them).
 * Fails the test when the connection is refused.
 */
export async function openBotTenant(
  app: FastifyInstance,
  connection: Record<string, unknown>,
): Promise<BotTenant> {
  const tenant = await createTenant(app);
  const support = await createQueue(app, tenant.companyId, 'Suporte');
  const sales = await createQueue(app, tenant.companyId, 'Vendas');
  const res = await app.inject({
    method: 'POST',
    url: '/api/whatsapp',
    headers: bearer(tenant.admin),
    payload: { name: 'Bot', provider: 'simulator', queueIds: [support, sales], ...connection },
  });
  expect(res.statusCode).toBe(201);
  return { ...tenant, whatsappId: res.json().id as number, support, sales };
}
