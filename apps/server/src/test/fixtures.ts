/**
 * Shared openings of test files: an app with one company and a simulator connection (the inbound
 * pipeline's and the campaigns' tests), and campaign settings that send at any hour.
 */
import type { FastifyInstance } from 'fastify';
import type { ConnectionRef } from '../channels/inbound-pipeline.js';
import {
  bearer,
  createSimulatorConnection,
  createTenant,
  type TenantFixture,
  type TestUser,
} from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

/** A test app, company A (admin, agent, queue) and one simulator connection of A. */
export interface ConnectionFixture {
  t: TestApp;
  a: TenantFixture;
  whatsappId: number;
  /** The connection as the pipeline's drivers name it. */
  ref: () => ConnectionRef;
}

/** Opens a ConnectionFixture; `env` goes to createTestApp. Close it with `t.close()`. */
export async function openConnectionFixture(env: Record<string, string> = {}): Promise<ConnectionFixture> {
  const t = await createTestApp(env);
  const a = await createTenant(t.app);
  const whatsappId = await createSimulatorConnection(t.app, a.admin);
  return { t, a, whatsappId, ref: () => ({ id: whatsappId, companyId: a.companyId }) };
}

/**
 * Campaign settings (the `settings` of POST /api/campaign-settings) that send at any hour, back to
 * back: all-day window (00:00 to 00:00), no interval between messages, no jitter (seconds).
 */
export const ANY_HOUR_CAMPAIGN_SETTINGS = {
  messageInterval: 0,
  longerIntervalAfter: 0,
  jitterSeconds: 0,
  sendWindowStart: '00:00',
  sendWindowEnd: '00:00',
};

/**
 * Saves the company's campaign settings so that tests send at any hour, back to back
 * (ANY_HOUR_CAMPAIGN_SETTINGS). @throws when the API refuses them.
 */
export async function campaignsAnyHour(app: FastifyInstance, admin: TestUser): Promise<void> {
  const saved = await app.inject({
    method: 'POST',
    url: '/api/campaign-settings',
    headers: bearer(admin),
    payload: { settings: ANY_HOUR_CAMPAIGN_SETTINGS },
  });
  if (saved.statusCode !== 200) throw new Error(`campaign settings: ${saved.statusCode} ${saved.body}`);
}

/** A complete, valid billing profile (PUT /billing/profile body) with a CPF whose check digits hold. */
export const VALID_BILLING_PROFILE = {
  name: 'Empresa A',
  email: 'financeiro@empresa.test',
  phone: '(11) 98765-4321',
  cnpjCpf: '295.379.955-93',
  address: 'Rua A, 1',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01001-000',
  country: 'BR',
};
