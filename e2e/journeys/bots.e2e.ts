/**
 * Journey of an AI prompt: an admin creates a prompt against a local fake model on the
 * /prompts page and binds it to the 'Suporte' queue in the queue modal; the customer writes in the
 * simulator and gets the model's answer; asks for a human and the ticket appears pending for the
 * agents of 'Suporte', the bot off.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_ADMIN, DEMO_AGENT } from '../support/demo.js';
import { startFakeModel } from '../support/fake-model.js';
import { closeJourney, openPage, pageToken, startJourney } from '../support/journey.js';
import { signInAs, waitForToast } from '../support/pages.js';
import type { RunningServer } from '../support/server.js';

const CUSTOMER = '5511966665555';
const HANDOVER_MARK = '#ATENDENTE#';
const HANDOVER_TEXT = 'Certo! Vou transferir você para um de nossos atendentes. Aguarde um momento.';

let server: RunningServer;
let model: Awaited<ReturnType<typeof startFakeModel>>;
let browser: Browser;
let admin: Page;
let agent: Page;
let token = '';

async function api<T>(path: string): Promise<T> {
  const res = await fetch(`${server.url}/api${path}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()) as T;
}

async function customerSays(body: string) {
  await admin.getByTestId('simulator-body').fill(body);
  await admin.getByTestId('simulator-send').click();
}

before(async () => {
  model = await startFakeModel((messages) => {
    const last = messages.at(-1)?.content ?? '';
    return /atendente|humano/i.test(last)
      ? HANDOVER_MARK
      : `Abrimos de segunda a sexta, das 8h às 18h. (${last})`;
  });
  ({ server, browser } = await startJourney({
    SIMULATOR_PAIR_MS: '100',
    OPENAI_BASE_URL: `${model.url}/v1`,
  }));
  admin = await openPage(browser, { width: 1366, height: 860 });
  agent = await openPage(browser, { width: 1366, height: 860 });
  await signInAs(admin, server.url, DEMO_ADMIN);
  token = await pageToken(admin);
  await signInAs(agent, server.url, DEMO_AGENT);
});
after(() => closeJourney(browser, server, () => model?.close()));

describe('AI prompt on a queue', () => {
  it('the admin creates a prompt and binds it to the Suporte queue', async () => {
    await admin.goto(`${server.url}/prompts`);
    await admin.getByTestId('add-prompt-button').click();
    await admin.getByTestId('prompt-name').fill('Assistente Zapdesk');
    await admin.getByTestId('prompt-apiKey').fill('sk-journey-0123456789');
    await admin
      .getByTestId('prompt-prompt')
      .fill(
        'Você é a assistente virtual da Zapdesk Demo. Responda em português, com educação e poucas palavras.',
      );
    await admin.getByTestId('prompt-queue').click();
    await admin.getByRole('option', { name: 'Suporte' }).click();
    await admin.getByTestId('prompt-save').click();
    await waitForToast(admin, 'Prompt saved');
    await admin.getByRole('cell', { name: 'Assistente Zapdesk' }).waitFor();

    const queues = await api<{ id: number; name: string }[]>('/queue');
    const support = queues.find((q) => q.name === 'Suporte')!;
    await admin.goto(`${server.url}/queues`);
    await admin.getByTestId(`queue-edit-${support.id}`).click();
    await admin.getByTestId('queue-prompt').getByRole('combobox').click();
    await admin.getByRole('option', { name: 'Assistente Zapdesk' }).click();
    await admin.getByTestId('queue-save').click();
    await admin.getByTestId('queue-modal').waitFor({ state: 'detached' });
    const detail = await api<{ promptId: number | null }>(`/queue/${support.id}`);
    assert.ok(detail.promptId, 'the queue has the prompt');
  });

  it("the customer writes and gets the model's answer", async () => {
    await admin.goto(`${server.url}/simulator`);
    await admin.getByTestId('simulator-from').fill(CUSTOMER);
    await admin.getByTestId('simulator-name').fill('Rita Cliente');
    await customerSays('Qual o horário de atendimento?');
    await admin
      .getByTestId('outbox-item')
      .filter({ hasText: 'Abrimos de segunda a sexta' })
      .waitFor({ timeout: 20_000 });
    const call = model.calls.at(-1)!;
    assert.equal(call.authorization, 'Bearer sk-journey-0123456789');
    assert.equal(call.messages[0]?.role, 'system');
    assert.match(call.messages[0]?.content ?? '', /assistente virtual da Zapdesk Demo/);
    assert.deepEqual(call.messages.at(-1), { role: 'user', content: 'Qual o horário de atendimento?' });
  });

  it('asks for a human: the bot says so and the ticket waits for the agents, pending', async () => {
    await agent.getByTestId('tickets-subtab-pending').click();
    await customerSays('Quero falar com um atendente');
    await admin.getByTestId('outbox-item').filter({ hasText: HANDOVER_TEXT }).waitFor({ timeout: 20_000 });
    const list = await api<{
      tickets: {
        id: number;
        status: string;
        useIntegration: boolean;
        promptId: number | null;
        contact: { number: string };
      }[];
    }>('/tickets?status=pending&showAll=true');
    const ticket = list.tickets.find((x) => x.contact.number === CUSTOMER);
    assert.ok(ticket, 'the ticket is pending');
    assert.equal(ticket.useIntegration, false);
    assert.ok(ticket.promptId);
    await agent.getByTestId(`ticket-item-${ticket.id}`).waitFor({ timeout: 15_000 });
    // The bot stays quiet now.
    const calls = model.calls.length;
    await customerSays('Olá?');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(model.calls.length, calls);
  });
});
