import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { botSessions, prompts, ticketNotes } from '../../db/schema/index.js';
import { inject, t } from '../../test/app-suite.js';
import { fake, useBotServicesSuite } from '../../test/bot-services-suite.js';
import {
  type ConnectedTenant,
  customerSays,
  flushJobs,
  openOneQueueTenant,
  ticketRow,
} from '../../test/conversation.js';
import { createQueue, customerNumber, injectMessage } from '../../test/factories.js';
import { FALLBACK_TEXT, HANDOVER_TEXT } from './bot-engine.js';
import { HANDOVER_MARK } from './openai-runner.js';
import { SIGNATURE_HEADER, signBody } from './webhook-runner.js';

useBotServicesSuite((url) => ({
  OPENAI_BASE_URL: `${url}/v1`,
  DIALOGFLOW_BASE_URL: url,
  BOT_TIMEOUT_MS: '800',
}));

type Setup = ConnectedTenant;

/** A tenant whose simulator connection serves its one queue (tickets land in it). */
const setup = () => openOneQueueTenant(t.app);

/** Makes the delayed jobs due and runs everything queued until nothing is left. */
const flush = () => flushJobs(t, 'queue-bot');

/** The customer writes; bots run (delayed bubbles too); answers what the business sent back. */
const say = (s: Setup, from: string, body: string, options: { delayed?: boolean } = {}) =>
  customerSays(t.app, s, from, body, () => (options.delayed === false ? t.app.jobs.drain() : flush()));

const ticketOf = (id: number) => ticketRow(t.app, id);

async function notesOf(ticketId: number) {
  return t.app.ctx.db.select().from(ticketNotes).where(eq(ticketNotes.ticketId, ticketId));
}

const PROMPT_TEXT =
  'Você é a assistente da Loja Azul. Responda em português, com educação e poucas palavras.';

async function createPrompt(s: Setup, extra: object = {}) {
  const res = await inject('POST', '/api/prompt', s.admin, {
    name: 'Assistente Azul',
    prompt: PROMPT_TEXT,
    apiKey: 'sk-live-abcdefgh12345678',
    queueId: s.queueId,
    temperature: 0.3,
    maxTokens: 120,
    maxMessages: 4,
    ...extra,
  });
  expect(res.statusCode).toBe(200);
  return res.json() as { id: number; apiKey: string };
}

describe('prompts API', () => {
  it('stores the key encrypted, answers it masked and keeps it on a PUT of the masked value', async () => {
    const s = await setup();
    const prompt = await createPrompt(s);
    expect(prompt.apiKey).toBe('sk-…5678');
    expect(prompt).toMatchObject({
      model: 'gpt-3.5-turbo-1106',
      maxTokens: 120,
      temperature: 0.3,
      maxMessages: 4,
    });
    const [row] = await t.app.ctx.db.select().from(prompts).where(eq(prompts.id, prompt.id));
    expect(row!.apiKey).not.toContain('abcdefgh');
    const listed = await inject('GET', '/api/prompt', s.admin);
    expect(JSON.stringify(listed.json())).not.toContain('abcdefgh');
    expect(listed.json().prompts[0].queue).toMatchObject({ id: s.queueId });

    const kept = await inject('PUT', `/api/prompt/${prompt.id}`, s.admin, {
      apiKey: prompt.apiKey,
      name: 'Outro nome',
    });
    expect(kept.statusCode).toBe(200);
    const [after] = await t.app.ctx.db.select().from(prompts).where(eq(prompts.id, prompt.id));
    expect(after!.apiKey).toBe(row!.apiKey);
    // Positive control: a new key replaces it.
    const replaced = await inject('PUT', `/api/prompt/${prompt.id}`, s.admin, {
      apiKey: 'sk-other-key-00009999',
    });
    expect(replaced.json().apiKey).toBe('sk-…9999');
  });

  it('validates the spec rules and the plan flag', async () => {
    const s = await setup();
    const base = { name: 'Assistente', prompt: PROMPT_TEXT, apiKey: 'sk-x-12345678', queueId: s.queueId };
    for (const [bad, field] of [
      [{ name: 'Ana' }, 'name'],
      [{ prompt: 'curto demais' }, 'prompt'],
      [{ temperature: 1.5 }, 'temperature'],
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ queueId: undefined }, 'queueId'],
    ] as const) {
      const res = await inject('POST', '/api/prompt', s.admin, { ...base, ...bad });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().field).toBe(field);
    }
    expect((await inject('POST', '/api/prompt', s.admin, base)).statusCode).toBe(200);
    await t.app.ctx.db.execute(
      sql`update plans set use_open_ai = false, use_integrations = false where id = (select plan_id from companies where id = ${s.companyId})`,
    );
    try {
      const res = await inject('GET', '/api/prompt', s.admin);
      expect(res.statusCode).toBe(403);
      expect((await inject('GET', '/api/queueIntegration', s.admin)).statusCode).toBe(403);
    } finally {
      await t.app.ctx.db.execute(
        sql`update plans set use_open_ai = true, use_integrations = true where id = (select plan_id from companies where id = ${s.companyId})`,
      );
    }
  });
});

describe('AI prompt answering', () => {
  it('answers with the model: system prompt, the last maxMessages messages, model, temperature, maxTokens', async () => {
    const s = await setup();
    const prompt = await createPrompt(s);
    expect(
      (await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: prompt.id })).statusCode,
    ).toBe(200);
    fake.received = [];
    fake.modelReply = (messages) => `Resposta para: ${messages.at(-1)?.content}`;
    const from = customerNumber();
    const first = await say(s, from, 'Oi, vocês abrem sábado?');
    expect(first.replies).toEqual(['Resposta para: Oi, vocês abrem sábado?']);
    expect(await ticketOf(first.ticketId)).toMatchObject({
      status: 'pending',
      useIntegration: true,
      promptId: prompt.id,
    });
    for (const text of ['E domingo?', 'Qual o endereço?']) await say(s, from, text);
    const calls = fake.requests('/v1/chat/completions');
    expect(calls).toHaveLength(3);
    const last = calls.at(-1)!;
    expect(last.headers.authorization).toBe('Bearer sk-live-abcdefgh12345678');
    const body = last.body as {
      model: string;
      temperature: number;
      max_tokens: number;
      messages: { role: string; content: string }[];
    };
    expect(body).toMatchObject({ model: 'gpt-3.5-turbo-1106', temperature: 0.3, max_tokens: 120 });
    expect(body.messages[0]!.role).toBe('system');
    expect(body.messages[0]!.content).toContain(PROMPT_TEXT);
    // maxMessages 4: the last four of the six messages, oldest first.
    expect(body.messages.slice(1)).toEqual([
      { role: 'assistant', content: 'Resposta para: Oi, vocês abrem sábado?' },
      { role: 'user', content: 'E domingo?' },
      { role: 'assistant', content: 'Resposta para: E domingo?' },
      { role: 'user', content: 'Qual o endereço?' },
    ]);
  });

  it('hands the ticket to the queue agents when the customer asks for a human, and stays quiet after', async () => {
    const s = await setup();
    const prompt = await createPrompt(s);
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: prompt.id });
    fake.modelReply = (messages) =>
      /humano|atendente/i.test(messages.at(-1)?.content ?? '') ? HANDOVER_MARK : 'Posso ajudar?';
    const from = customerNumber();
    await say(s, from, 'Oi');
    fake.received = [];
    const asked = await say(s, from, 'Quero falar com um atendente humano');
    expect(asked.replies).toEqual([HANDOVER_TEXT]);
    expect(await ticketOf(asked.ticketId)).toMatchObject({
      status: 'pending',
      userId: null,
      useIntegration: false,
      chatbot: false,
      promptId: prompt.id,
      queueId: s.queueId,
    });
    const later = await say(s, from, 'Alô?');
    expect(later.replies).toEqual([]);
    expect(fake.requests('/v1/chat/completions')).toHaveLength(1);
    // It shows in the agents' pending list of the queue.
    const list = await inject(
      'GET',
      `/api/tickets?status=pending&queueIds=${JSON.stringify([s.queueId])}`,
      s.agent,
    );
    expect(list.json().tickets.map((x: { id: number }) => x.id)).toContain(asked.ticketId);
  });

  it('a refused key, a timeout or an unreachable model leave the ticket to a human with a note, never silence', async () => {
    for (const failure of ['#401', '#slow', 'unreachable'] as const) {
      const s = await setup();
      const prompt = await createPrompt(s);
      await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: prompt.id });
      const saved = t.app.ctx.config.OPENAI_BASE_URL;
      if (failure === 'unreachable') t.app.ctx.config.OPENAI_BASE_URL = 'http://127.0.0.1:9/v1';
      fake.modelReply = () => failure;
      try {
        const from = customerNumber();
        const res = await say(s, from, 'Oi');
        expect(res.replies, failure).toEqual([FALLBACK_TEXT]);
        expect(await ticketOf(res.ticketId)).toMatchObject({ status: 'pending', useIntegration: false });
        const notes = await notesOf(res.ticketId);
        expect(notes).toHaveLength(1);
        expect(notes[0]!.note).toMatch(
          failure === '#401' ? /API key refused/ : failure === '#slow' ? /timeout/ : /unreachable/,
        );
      } finally {
        t.app.ctx.config.OPENAI_BASE_URL = saved;
      }
    }
    // Positive control: the same setup with a working model answers.
    const s = await setup();
    const prompt = await createPrompt(s);
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: prompt.id });
    fake.modelReply = () => 'Funcionando';
    expect((await say(s, customerNumber(), 'Oi')).replies).toEqual(['Funcionando']);
  });

  it("answers only while the plan has useOpenAi; another company's prompt cannot be set on a ticket (404)", async () => {
    const s = await setup();
    const prompt = await createPrompt(s);
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: prompt.id });
    fake.modelReply = () => 'Com plano';
    const setPlan = (on: boolean) =>
      t.app.ctx.db.execute(
        sql`update plans set use_open_ai = ${on} where id = (select plan_id from companies where id = ${s.companyId})`,
      );
    await setPlan(false);
    try {
      expect((await say(s, customerNumber(), 'Oi')).replies).toEqual([]);
    } finally {
      await setPlan(true);
    }
    const answered = await say(s, customerNumber(), 'Oi');
    expect(answered.replies).toEqual(['Com plano']);

    const other = await setup();
    const foreign = await createPrompt(other);
    const put = (promptId: number) =>
      inject('PUT', `/api/tickets/${answered.ticketId}`, s.admin, { promptId, useIntegration: true });
    expect((await put(foreign.id)).statusCode).toBe(404);
    expect((await put(prompt.id)).statusCode).toBe(200);
  });

  it("a slow model holds only its own ticket: another customer's answer goes out first", async () => {
    const s = await setup();
    const prompt = await createPrompt(s);
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: prompt.id });
    fake.modelReply = (messages) => ((messages.at(-1)?.content ?? '').includes('lento') ? '#slow' : 'Rápido');
    const slow = customerNumber();
    const fast = customerNumber();
    await injectMessage(t.app, s.admin, s.whatsappId, { from: slow, body: 'lento' });
    await injectMessage(t.app, s.admin, s.whatsappId, { from: fast, body: 'oi' });
    await flush();
    const sent = await t.app.ctx.db.execute(
      sql`select m.body, m.created_at from messages m where m.company_id = ${s.companyId} and m.from_me order by m.created_at, m.id`,
    );
    const bodies = (sent.rows as { body: string }[]).map((r) => r.body);
    expect(bodies).toEqual(['Rápido', FALLBACK_TEXT]);
  });

  it('an agent who accepts the ticket stops the bot; a prompt on the connection answers too', async () => {
    const s = await setup();
    const prompt = await createPrompt(s);
    expect(
      (await inject('PUT', `/api/whatsapp/${s.whatsappId}`, s.admin, { promptId: prompt.id })).statusCode,
    ).toBe(200);
    fake.modelReply = () => 'Sou o bot';
    const from = customerNumber();
    const first = await say(s, from, 'Oi');
    expect(first.replies).toEqual(['Sou o bot']);
    const accepted = await inject('PUT', `/api/tickets/${first.ticketId}`, s.admin, { status: 'open' });
    expect(accepted.statusCode).toBe(200);
    expect(await ticketOf(first.ticketId)).toMatchObject({ status: 'open', useIntegration: false });
    fake.received = [];
    expect((await say(s, from, 'Ainda aí?')).replies).toEqual([]);
    expect(fake.requests('/v1/chat/completions')).toHaveLength(0);
  });

  it('a prompt made for a queue answers there when nobody names a bot, unless the queue or connection names another', async () => {
    const s = await setup();
    const own = await createPrompt(s, { name: 'Do setor' });
    fake.modelReply = (messages) => `${messages[0]!.content.includes('Setor') ? 'setor' : 'outro'}`;
    await inject('PUT', `/api/prompt/${own.id}`, s.admin, { prompt: `${PROMPT_TEXT} Setor.` });
    // Neither the queue nor the connection names a prompt: the queue's own answers and takes the ticket.
    const first = await say(s, customerNumber(), 'Oi');
    expect(first.replies).toEqual(['setor']);
    expect(await ticketOf(first.ticketId)).toMatchObject({ useIntegration: true, promptId: own.id });

    // The queue names another prompt: that one answers.
    const other = await createPrompt(s, { name: 'Outro', queueId: await createQueue(t.app, s.companyId) });
    expect((await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: other.id })).statusCode).toBe(
      200,
    );
    const second = await say(s, customerNumber(), 'Oi');
    expect(second.replies).toEqual(['outro']);
    expect(await ticketOf(second.ticketId)).toMatchObject({ promptId: other.id });

    // The connection names another prompt: that one answers too.
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { promptId: null });
    expect(
      (await inject('PUT', `/api/whatsapp/${s.whatsappId}`, s.admin, { promptId: other.id })).statusCode,
    ).toBe(200);
    const third = await say(s, customerNumber(), 'Oi');
    expect(third.replies).toEqual(['outro']);
  });
});

async function createIntegration(s: Setup, payload: object) {
  const res = await inject('POST', '/api/queueIntegration', s.admin, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; secret: string; hasJsonContent: boolean; jsonContent: string };
}

describe('typebot integration', () => {
  it('runs the chat API: bubbles in order with the delay, choices, unknown input, expiry, restart, lost session, finish', async () => {
    const s = await setup();
    const integration = await createIntegration(s, {
      type: 'typebot',
      name: 'Typebot Loja',
      urlN8N: fake.url,
      typebotSlug: 'loja-azul',
      typebotDelayMessage: 1500,
      typebotExpires: 1,
      typebotKeywordFinish: 'sair',
      typebotKeywordRestart: 'reiniciar',
      typebotRestartMessage: 'Recomeçando a conversa.',
      typebotUnknownMessage: 'Não entendi, escolha uma das opções.',
    });
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { integrationId: integration.id });
    fake.received = [];
    const from = customerNumber();
    const menu = '*1* - Vendas\n*2* - Suporte';

    // First bubble at once; the next ones are delayed jobs typebotDelayMessage apart.
    const first = await say(s, from, 'Oi', { delayed: false });
    expect(first.replies).toEqual(['Olá! Eu sou o bot.']);
    const { rows } = await t.database.executor.executeSql(
      `select extract(epoch from (start_after - created_on)) as delay, data from pgboss.job
       where name = 'queue-bot' and state = 'created'`,
    );
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]!.delay)).toBeGreaterThan(1.3);
    expect(Number(rows[0]!.delay)).toBeLessThan(1.8);
    await flush();
    expect(
      t.app.simulator
        .outbox(s.whatsappId, from)
        .map((m) => m.body)
        .slice(-3),
    ).toEqual(['Olá! Eu sou o bot.', 'Escolha um assunto:', menu]);
    const start = fake.requests('/api/v1/typebots/loja-azul/startChat');
    expect(start).toHaveLength(1);
    expect(start[0]!.body).toMatchObject({ prefilledVariables: { number: from, pushName: 'Maria Souza' } });

    // An answer that is not a choice: the unknown message, Typebot is not called.
    const unknown = await say(s, from, 'talvez');
    expect(unknown.replies).toEqual(['Não entendi, escolha uma das opções.']);
    expect(fake.requests('/api/v1/sessions/')).toHaveLength(0);

    // The choice's number continues the chat with the choice's text.
    const chosen = await say(s, from, '1');
    expect(chosen.replies).toEqual(['Ótimo, vendas! Qual produto?']);
    const cont = fake.requests('/api/v1/sessions/');
    expect(cont).toHaveLength(1);
    expect(cont[0]!.path).toBe('/api/v1/sessions/tb-1/continueChat');
    expect(cont[0]!.body).toMatchObject({ message: { type: 'text', text: 'Vendas' } });

    // typebotExpires minutes of silence: a clean new chat, the old session is not continued.
    await t.app.ctx.db
      .update(botSessions)
      .set({ lastActivityAt: new Date(Date.now() - 2 * 60_000) })
      .where(eq(botSessions.ticketId, chosen.ticketId));
    const expired = await say(s, from, 'Voltei');
    expect(expired.replies).toEqual(['Olá! Eu sou o bot.', 'Escolha um assunto:', menu]);
    expect(fake.requests('/api/v1/typebots/')).toHaveLength(2);
    expect(fake.requests('/api/v1/sessions/')).toHaveLength(1);

    // The restart keyword: the restart message, then a new chat.
    const restarted = await say(s, from, 'REINICIAR');
    expect(restarted.replies).toEqual([
      'Recomeçando a conversa.',
      'Olá! Eu sou o bot.',
      'Escolha um assunto:',
      menu,
    ]);

    // Typebot lost the session on its side (404): one clean start, no loop.
    fake.typebotSessions.clear();
    const lost = await say(s, from, '2');
    expect(lost.replies).toEqual(['Olá! Eu sou o bot.', 'Escolha um assunto:', menu]);
    expect(fake.requests('/api/v1/typebots/')).toHaveLength(4);

    // The finish keyword hands the ticket to a human.
    const finished = await say(s, from, 'sair');
    expect(finished.replies).toEqual([HANDOVER_TEXT]);
    expect(await ticketOf(finished.ticketId)).toMatchObject({
      status: 'pending',
      useIntegration: false,
      integrationId: integration.id,
    });
    const calls = fake.received.length;
    expect((await say(s, from, 'Oi de novo')).replies).toEqual([]);
    expect(fake.received.length).toBe(calls);
  });

  it('drops the pending bubbles when an agent accepts meanwhile', async () => {
    const s = await setup();
    const integration = await createIntegration(s, {
      type: 'typebot',
      name: 'Typebot',
      urlN8N: fake.url,
      typebotSlug: 'loja',
    });
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { integrationId: integration.id });
    const from = customerNumber();
    const first = await say(s, from, 'Oi', { delayed: false });
    expect(first.replies).toEqual(['Olá! Eu sou o bot.']);
    await inject('PUT', `/api/tickets/${first.ticketId}`, s.admin, { status: 'open' });
    await flush();
    expect(t.app.simulator.outbox(s.whatsappId, from).map((m) => m.body)).not.toContain(
      'Escolha um assunto:',
    );
  });
});

describe('n8n and webhook integrations', () => {
  it('POSTs the message, contact and ticket signed with HMAC and sends the replies it answers', async () => {
    const s = await setup();
    const integration = await createIntegration(s, {
      type: 'webhook',
      name: 'Meu sistema',
      urlN8N: `${fake.url}/hook`,
    });
    expect(integration.secret.length).toBeGreaterThan(20);
    await inject('PUT', `/api/whatsapp/${s.whatsappId}`, s.admin, { integrationId: integration.id });
    fake.received = [];
    fake.hookAnswer = (body) => ({
      replies: [`Recebido: ${(body.message as { body: string }).body}`, { body: 'Segunda' }],
    });
    const from = customerNumber();
    const res = await say(s, from, 'Pedido 123');
    expect(res.replies).toEqual(['Recebido: Pedido 123', 'Segunda']);
    const [hit] = fake.requests('/hook');
    expect(hit!.body).toMatchObject({
      event: 'message.received',
      message: { body: 'Pedido 123', fromMe: false },
      contact: { number: from, name: 'Maria Souza' },
      ticket: { id: res.ticketId, status: 'pending' },
    });
    const header = String(hit!.headers[SIGNATURE_HEADER]);
    const timestamp = Number(/t=(\d+)/.exec(header)![1]);
    expect(header).toBe(signBody(integration.secret, hit!.raw, timestamp));
    expect(header).not.toBe(signBody('wrong-secret', hit!.raw, timestamp));

    fake.hookAnswer = () => ({ handover: true });
    expect((await say(s, from, 'Quero um humano')).replies).toEqual([HANDOVER_TEXT]);
    expect(await ticketOf(res.ticketId)).toMatchObject({ useIntegration: false, status: 'pending' });
  });

  it('a malformed or failing answer hands the ticket to a human with a note', async () => {
    const s = await setup();
    const integration = await createIntegration(s, {
      type: 'n8n',
      name: 'Fluxo n8n',
      urlN8N: `${fake.url}/hook`,
    });
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { integrationId: integration.id });
    fake.hookAnswer = () => '<html>oops</html>';
    const res = await say(s, customerNumber(), 'Oi');
    expect(res.replies).toEqual([FALLBACK_TEXT]);
    expect((await notesOf(res.ticketId))[0]!.note).toMatch(/n8n: malformed answer/);
    fake.hookAnswer = (body) => ({ reply: `ok ${(body.message as { body: string }).body}` });
  });
});

describe('dialogflow integration', () => {
  it('trades the service account for a token, calls detectIntent and sends the fulfilment texts', async () => {
    const s = await setup();
    const jsonContent = fake.serviceAccount();
    const integration = await createIntegration(s, {
      type: 'dialogflow',
      name: 'Agente DF',
      projectName: 'loja-agent',
      language: 'pt-BR',
      jsonContent,
    });
    expect(integration).toMatchObject({ hasJsonContent: true, jsonContent: '' });
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { integrationId: integration.id });
    fake.received = [];
    const from = customerNumber();
    const res = await say(s, from, 'Qual o horário?');
    expect(res.replies).toEqual(['Dialogflow: Qual o horário?']);
    expect(fake.requests('/token')).toHaveLength(1);
    const [detect] = fake.requests('/v2/');
    const ticket = await ticketOf(res.ticketId);
    expect(detect!.path).toBe(`/v2/projects/loja-agent/agent/sessions/${ticket.uuid}:detectIntent`);
    expect(detect!.body).toEqual({
      queryInput: { text: { text: 'Qual o horário?', languageCode: 'pt-BR' } },
    });

    fake.dialogflowAnswer = () => ({
      queryResult: { fulfillmentText: 'Até logo!', intent: { endInteraction: true } },
    });
    expect((await say(s, from, 'tchau')).replies).toEqual(['Até logo!']);
    expect(await ticketOf(res.ticketId)).toMatchObject({ useIntegration: false });
    fake.dialogflowAnswer = (text) => ({
      queryResult: { fulfillmentMessages: [{ text: { text: [`Dialogflow: ${text}`] } }], intent: {} },
    });
  });

  it('testSession runs the spec body (projectName, jsonContent, language) and reports failures without a 5xx', async () => {
    const s = await setup();
    const jsonContent = fake.serviceAccount();
    const ok = await inject('POST', '/api/queueIntegration/testSession', s.admin, {
      projectName: 'loja-agent',
      jsonContent,
      language: 'en',
    });
    expect(ok.json()).toEqual({ ok: true, replies: ['Dialogflow: Olá'] });
    const typebot = await createIntegration(s, {
      type: 'typebot',
      name: 'TB',
      urlN8N: fake.url,
      typebotSlug: 'x',
    });
    const tb = await inject('POST', '/api/queueIntegration/testSession', s.admin, { id: typebot.id });
    expect(tb.json()).toMatchObject({
      ok: true,
      replies: ['Olá! Eu sou o bot.', 'Escolha um assunto:', 'Vendas', 'Suporte'],
    });
    const down = await inject('POST', '/api/queueIntegration/testSession', s.admin, {
      type: 'webhook',
      urlN8N: 'http://127.0.0.1:9/hook',
    });
    expect(down.statusCode).toBe(200);
    expect(down.json()).toMatchObject({ ok: false, error: 'webhook: unreachable' });
    const bad = await inject('POST', '/api/queueIntegration/testSession', s.admin, {
      jsonContent: '{"x":1}',
    });
    expect(bad.json()).toMatchObject({ ok: false, error: 'jsonContent required' });
  });
});

describe('queue integrations API', () => {
  it('requires the fields of each type, keeps projectName equal to the name, pages with hasMore', async () => {
    const s = await setup();
    const noUrl = await inject('POST', '/api/queueIntegration', s.admin, { type: 'typebot', name: 'TB' });
    expect(noUrl.statusCode).toBe(400);
    expect(noUrl.json().field).toBe('urlN8N');
    const noSlug = await inject('POST', '/api/queueIntegration', s.admin, {
      type: 'typebot',
      name: 'TB',
      urlN8N: fake.url,
    });
    expect(noSlug.json().field).toBe('typebotSlug');
    const badUrl = await inject('POST', '/api/queueIntegration', s.admin, {
      type: 'n8n',
      name: 'N8',
      urlN8N: 'ftp://x',
    });
    expect(badUrl.statusCode).toBe(400);
    const df = await inject('POST', '/api/queueIntegration', s.admin, {
      type: 'dialogflow',
      name: 'DF',
      jsonContent: 'nope',
    });
    expect(df.json().field).toBe('jsonContent');
    const made = await createIntegration(s, {
      type: 'n8n',
      name: 'Fluxo',
      projectName: 'ignored',
      urlN8N: `${fake.url}/hook`,
    });
    expect(made).toMatchObject({
      projectName: 'Fluxo',
      typebotDelayMessage: 1000,
      typebotExpires: 1,
      language: 'pt-BR',
    });
    for (let i = 0; i < 20; i++)
      await createIntegration(s, { type: 'flowbuilder', name: `Fluxo ${String(i).padStart(2, '0')}` });
    const page1 = await inject('GET', '/api/queueIntegration?pageNumber=1', s.admin);
    expect(page1.json()).toMatchObject({ count: 21, hasMore: true });
    expect(page1.json().queueIntegrations).toHaveLength(20);
    const page2 = await inject('GET', '/api/queueIntegration?pageNumber=2', s.admin);
    expect(page2.json()).toMatchObject({ hasMore: false });
    const search = await inject('GET', '/api/queueIntegration?searchParam=n8n', s.admin);
    expect(search.json().queueIntegrations.map((i: { id: number }) => i.id)).toEqual([made.id]);
  });

  it('flowbuilder records that it would start a flow and leaves the ticket to a human; a wired starter takes it', async () => {
    const s = await setup();
    const integration = await createIntegration(s, { type: 'flowbuilder', name: 'Fluxo de boas-vindas' });
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { integrationId: integration.id });
    const res = await say(s, customerNumber(), 'Oi');
    expect(res.replies).toEqual([]);
    expect((await notesOf(res.ticketId))[0]!.note).toMatch(/Fluxo de boas-vindas/);
    expect(await ticketOf(res.ticketId)).toMatchObject({
      useIntegration: false,
      integrationId: integration.id,
    });

    const started: number[] = [];
    t.app.bots.setFlowStarter(async ({ ticketId }) => {
      started.push(ticketId);
      return true;
    });
    const second = await say(s, customerNumber(), 'Olá');
    expect(started).toEqual([second.ticketId]);
    expect(await ticketOf(second.ticketId)).toMatchObject({ useIntegration: true });
    expect(await notesOf(second.ticketId)).toEqual([]);
  });

  it('deleting an integration detaches it from queues and tickets', async () => {
    const s = await setup();
    const integration = await createIntegration(s, {
      type: 'webhook',
      name: 'Hook',
      urlN8N: `${fake.url}/hook`,
    });
    await inject('PUT', `/api/queue/${s.queueId}`, s.admin, { integrationId: integration.id });
    const res = await say(s, customerNumber(), 'Oi');
    expect((await inject('DELETE', `/api/queueIntegration/${integration.id}`, s.admin)).statusCode).toBe(200);
    expect((await inject('GET', `/api/queue/${s.queueId}`, s.admin)).json().integrationId).toBeNull();
    expect(await ticketOf(res.ticketId)).toMatchObject({ integrationId: null, useIntegration: false });
    const [session] = await t.app.ctx.db
      .select()
      .from(botSessions)
      .where(and(eq(botSessions.ticketId, res.ticketId)));
    expect(session).toBeUndefined();
  });
});
