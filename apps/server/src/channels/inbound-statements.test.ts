/**
 * The inbound pipeline's database work per batch (issue 10, item 3): a batch of messages of known
 * conversations costs a bounded number of statements, whatever its size — the per-message hooks
 * (campaign opt-out, campaign confirmation) answer from caches instead of querying per message.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createSimulatorConnection,
  createTenantPair,
  customerNumber,
  inboundMessage,
  type TenantFixture,
} from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp;
let a: TenantFixture;
let whatsappId: number;
beforeAll(async () => {
  t = await createTestApp();
  ({ a } = await createTenantPair(t.app));
  whatsappId = await createSimulatorConnection(t.app, a.admin);
  // The setup wrote companies and plans: the caches bypass themselves for a moment after that.
  await vi.waitFor(() => expect(t.app.ctx.caches?.usable).toBe(true), { timeout: 5000, interval: 50 });
});
afterAll(async () => {
  await t.close();
});

const ref = () => ({ id: whatsappId, companyId: a.companyId });

/** Customers with a live ticket each (their first message stored). */
async function knownContacts(n: number): Promise<string[]> {
  const numbers = Array.from({ length: n }, () => customerNumber());
  for (const from of numbers) {
    expect(await t.app.pipeline.ingest(ref(), inboundMessage(from, 'primeira'))).toBeTruthy();
  }
  return numbers;
}

/** The statements the app sends while the messages (one per customer, all at once) are ingested. */
async function statementsFor(numbers: string[], body: string): Promise<string[]> {
  const seen: string[] = [];
  const stop = t.database.onStatement((text) => seen.push(text));
  try {
    const results = await Promise.all(
      numbers.map((from) => t.app.pipeline.ingest(ref(), inboundMessage(from, body))),
    );
    expect(results.every(Boolean)).toBe(true);
  } finally {
    stop();
  }
  return seen;
}

/** The statements' first characters, one a line (the failure message). */
const listing = (statements: string[]) =>
  statements.map((text) => text.replace(/\s+/g, ' ').slice(0, 90)).join('\n');

describe('inbound statements per batch', () => {
  it('does not grow with the number of messages of known conversations', async () => {
    const customers = await knownContacts(40);
    // Warm-up: the per-company caches fill once.
    await statementsFor(customers.slice(0, 2), 'oi');
    const few = await statementsFor(customers.slice(0, 4), 'tudo bem?');
    const many = await statementsFor(customers, 'qual o horário?');
    // One multi-row statement per lane (the app's pipeline has two) and its retries' margin, nothing
    // per message: the opt-out keyword, the confirmation state and the webhooks come from caches.
    expect(few.length, listing(few)).toBeLessThanOrEqual(4);
    expect(many.length, listing(many)).toBeLessThanOrEqual(4);
  });
});
