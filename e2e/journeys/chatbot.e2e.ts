/**
 * Journey of the queue chatbot: the demo connection serves 'Suporte' and 'Vendas' with a greeting; a
 * customer (the simulator page) writes, gets the numbered queue menu, answers '2' and the ticket lands
 * in the pending list of a seller who works only in 'Vendas', marked with that queue, while the
 * support agent does not get it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import {
  apiJson,
  apiLogin,
  type Credentials,
  closeJourney,
  openPage,
  pageToken,
} from '../support/journey.js';
import { startInboxJourney } from '../support/openers.js';
import { signInAs } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511977776666';
const SELLER = { email: 'vendas@zapdesk.local', password: 'vendas-pass' };

let server: RunningServer;
let browser: Browser;
let customer: Page;
let seller: Page;
let adminToken = '';

const api = <T>(path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
  apiJson<T>(server.url, init.token ?? adminToken, path, init);

/** Signs in through the API; resolves with the session token. */
async function login(credentials: Credentials): Promise<string> {
  return (await apiLogin(server.url, credentials)).token;
}

/** The customer types on the simulator page. */
async function customerSays(body: string) {
  await customer.getByTestId('simulator-body').fill(body);
  await customer.getByTestId('simulator-send').click();
}

let salesQueueId = 0;

before(async () => {
  ({ server, browser, adminToken } = await startInboxJourney());
  const queues = (await api<{ id: number; name: string }[]>('/queue')).json;
  const support = queues.find((q) => q.name === 'Suporte')!;
  const sales = queues.find((q) => q.name === 'Vendas')!;
  salesQueueId = sales.id;
  const [connection] = (await api<Record<string, unknown>[]>('/whatsapp')).json;
  const updated = await api(`/whatsapp/${connection!.id}`, {
    method: 'PUT',
    body: {
      name: connection!.name,
      isDefault: true,
      provider: connection!.provider,
      queueIds: [support.id, sales.id],
      greetingMessage: '{{ms}}, {{firstName}}! Escolha um setor:',
    },
  });
  assert.equal(updated.status, 200, JSON.stringify(updated.json));
  const created = await api('/users', {
    method: 'POST',
    body: { name: 'Vendedora', ...SELLER, profile: 'user', queueIds: [sales.id] },
  });
  assert.equal(created.status, 201, JSON.stringify(created.json));

  customer = await openPage(browser, { width: 1366, height: 860 });
  seller = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(customer, server.url, DEMO_ADMIN);
  // Signing in again ended the admin's API session: the API calls go on with the page's.
  adminToken = await pageToken(customer);
  await signInAs(seller, server.url, SELLER);
});
after(() => closeJourney(browser, server));

describe('queue chatbot', () => {
  it('greets the customer with the numbered menu of the queues', async () => {
    await customer.goto(`${server.url}/simulator`);
    await customer.getByTestId('simulator-from').fill(CUSTOMER);
    await customer.getByTestId('simulator-name').fill('Carla Compradora');
    await customerSays('Oi, quero comprar');
    const menu = customer.getByTestId('outbox-item').filter({ hasText: '*2* - Vendas' });
    await menu.waitFor({ timeout: 15_000 });
    const text = (await menu.textContent()) ?? '';
    assert.match(text, /Carla! Escolha um setor:/);
    assert.match(text, /\*1\* - Suporte/);
  });

  it("the customer answers 2 and the ticket lands in Vendas' pending list", async () => {
    await seller.getByTestId('tickets-subtab-pending').click();
    await customerSays('2');
    const tickets = await api<{
      tickets: { id: number; queueId: number | null; contact: { number: string } }[];
    }>(`/tickets?status=pending&showAll=true&queueIds=${JSON.stringify([salesQueueId])}`);
    let ticketId = tickets.json.tickets.find((x) => x.contact.number === CUSTOMER)?.id;
    for (let i = 0; !ticketId && i < 75; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const again = await api<{ tickets: { id: number; contact: { number: string } }[] }>(
        `/tickets?status=pending&showAll=true&queueIds=${JSON.stringify([salesQueueId])}`,
      );
      ticketId = again.json.tickets.find((x) => x.contact.number === CUSTOMER)?.id;
    }
    assert.ok(ticketId, 'the ticket reached the Vendas queue');
    const item = seller.getByTestId(`ticket-item-${ticketId}`);
    await item.waitFor({ timeout: 10_000 });
    await seller.getByTestId(`ticket-queue-${ticketId}`).filter({ hasText: 'Vendas' }).waitFor();

    // The support agent, outside Vendas, does not get it.
    const agentToken = await login(DEMO_AGENT);
    const agentView = await api<{ tickets: { id: number }[] }>('/tickets?status=pending', {
      token: agentToken,
    });
    assert.ok(!agentView.json.tickets.some((x) => x.id === ticketId));
  });
});
