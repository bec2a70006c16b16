import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { flowRuns, messages, tickets } from '../../db/schema/index.js';
import { inject, t } from '../../test/app-suite.js';
import { fake, useBotServicesSuite } from '../../test/bot-services-suite.js';
import { flushJobs } from '../../test/conversation.js';
import {
  bearer,
  createQueue,
  createSimulatorConnection,
  createTenant,
  customerNumber,
  downgradeToNoFlags,
  injectMessage,
  setDueDate,
  type TenantFixture,
} from '../../test/factories.js';
import { flowEdge, flowNode } from '../../test/flow-fixture.js';
import { buildSecondNode } from '../../test/test-app.js';
import { FLOW_STEP_JOB, type FlowStepJob } from './flow-engine.js';
import { fillFlowVariables, saysPhrase } from './flow-text.js';

useBotServicesSuite((url) => ({ OPENAI_BASE_URL: `${url}/v1`, BOT_TIMEOUT_MS: '2000' }));

interface Setup extends TenantFixture {
  whatsappId: number;
  sales: number;
  flowId: number;
}

const START = flowNode('1', 'start', { label: 'Inicio do fluxo' });

/**
 * A tenant with a simulator connection, a queue 'Vendas' and a flow bound to the phrase 'oi':
 * greeting content (text, 2 s interval, text), a menu (1 Vendas → question → thanks → ticket node
 * to Vendas; 2 → goodbye).
 */
async function setup(graph?: (sales: number) => object, phrase = 'oi'): Promise<Setup> {
  const tenant = await createTenant(t.app);
  const sales = await createQueue(t.app, tenant.companyId, 'Vendas');
  const whatsappId = await createSimulatorConnection(t.app, tenant.admin);
  const api = async (method: 'POST' | 'PUT', url: string, payload: object) => {
    const res = await t.app.inject({ method, url, headers: bearer(tenant.admin), payload });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json();
  };
  const flow = await api('POST', '/api/flowbuilder', { name: 'Atendimento' });
  const defaultGraph = {
    nodes: [
      START,
      flowNode('content', 'singleBlock', {
        seq: ['message1', 'interval1', 'message2'],
        elements: [
          { number: 'message1', value: 'Olá {{firstName}}!' },
          { number: 'interval1', value: '2' },
          { number: 'message2', value: 'Vamos lá.' },
        ],
      }),
      flowNode('menu', 'menu', {
        message: 'Escolha:',
        arrayOption: [
          { number: 1, value: 'Vendas' },
          { number: 2, value: 'Sair' },
        ],
      }),
      flowNode('ask', 'question', { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } }),
      flowNode('thanks', 'message', { label: 'Obrigado, {{nome}}.' }),
      flowNode('queue', 'ticket', { data: { id: sales, name: 'Vendas' } }),
      flowNode('bye', 'message', { label: 'Até logo' }),
    ],
    connections: [
      flowEdge('1', 'content'),
      flowEdge('content', 'menu'),
      flowEdge('menu', 'ask', 'a1'),
      flowEdge('menu', 'bye', 'a2'),
      flowEdge('ask', 'thanks'),
      flowEdge('thanks', 'queue'),
    ],
  };
  await api('POST', '/api/flowbuilder/flow', { idFlow: flow.id, ...(graph ? graph(sales) : defaultGraph) });
  await api('POST', '/api/flowcampaign', { name: 'Oi', flowId: flow.id, whatsappId, phrase });
  return { ...tenant, whatsappId, sales, flowId: flow.id };
}

/** Makes delayed flow steps due and runs everything queued until nothing is left. */
const flush = () => flushJobs(t, FLOW_STEP_JOB, true);

/** The customer writes; due jobs run (not the delayed ones); answers what the business sent back. */
async function say(s: Setup, from: string, body: string) {
  const sent = t.app.simulator.outbox(s.whatsappId, from).length;
  const message = await injectMessage(t.app, s.admin, s.whatsappId, { from, body, name: 'Maria Souza' });
  await t.app.jobs.drain();
  return { ticketId: message.ticketId, replies: () => replies(s, from, sent) };
}

function replies(s: Setup, from: string, since = 0) {
  return t.app.simulator
    .outbox(s.whatsappId, from)
    .slice(since)
    .map((item) => item.body);
}

async function runOf(ticketId: number) {
  const [run] = await t.app.ctx.db.select().from(flowRuns).where(eq(flowRuns.ticketId, ticketId));
  return run;
}

describe('flow text', () => {
  it('matches phrases without case or accents, as the whole message or whole words in it', () => {
    expect(saysPhrase('Oi', 'oi')).toBe(true);
    expect(saysPhrase('  ÓI, tudo bem?', 'oi')).toBe(true);
    expect(saysPhrase('quero uma promoção', 'Promocao')).toBe(true);
    expect(saysPhrase('boi', 'oi')).toBe(false);
    expect(saysPhrase('olá', 'oi')).toBe(false);
  });
  it('fills the run variables and keeps unknown placeholders', () => {
    expect(fillFlowVariables('Oi {{nome}}, {{ outro }}', { nome: 'Ana' })).toBe('Oi Ana, {{ outro }}');
  });
});

describe('flow engine', () => {
  it('runs a flow started by its phrase: content in order, interval as a job, menu, question, queue', async () => {
    const s = await setup();
    const from = customerNumber();
    const first = await say(s, from, 'ÓI, boa tarde');
    // The first text is sent; the interval waits as a delayed job.
    expect(first.replies()).toEqual(['Olá Maria!']);
    expect(await runOf(first.ticketId)).toMatchObject({ status: 'waitingUntil', nodeId: 'content' });
    await flush();
    expect(replies(s, from)).toEqual(['Olá Maria!', 'Vamos lá.', 'Escolha:\n\n*1* - Vendas\n*2* - Sair']);
    expect(await runOf(first.ticketId)).toMatchObject({ status: 'waitingInput', nodeId: 'menu' });

    // An invalid answer repeats the menu.
    expect((await say(s, from, '7')).replies()).toEqual(['Escolha:\n\n*1* - Vendas\n*2* - Sair']);
    // The option's text is an answer too.
    expect((await say(s, from, 'vendas')).replies()).toEqual(['Seu nome?']);
    const last = await say(s, from, 'Ana');
    expect(last.replies()).toEqual(['Obrigado, Ana.']);
    expect(await runOf(first.ticketId)).toMatchObject({ status: 'ended', variables: { nome: 'Ana' } });
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, first.ticketId));
    expect(ticket).toMatchObject({
      queueId: s.sales,
      status: 'pending',
      userId: null,
      useIntegration: false,
    });
  });

  it('does not start without the phrase, or when the campaign is off', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'boa tarde');
    expect(await runOf(said.ticketId)).toBeUndefined();
    const other = await setup(undefined, 'promoção');
    const [campaign] = (await inject('GET', '/api/flowcampaign', other.admin)).json().flow as {
      id: number;
    }[];
    await inject('PUT', '/api/flowcampaign', other.admin, { id: campaign!.id, status: false });
    const off = await say(other, customerNumber(), 'promocao');
    expect(await runOf(off.ticketId)).toBeUndefined();
  });

  it('sends nothing twice when a step job runs again', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    const run = (await runOf(said.ticketId))!;
    const count = async () =>
      (
        await t.app.ctx.db
          .select({ id: messages.id })
          .from(messages)
          .where(eq(messages.ticketId, said.ticketId))
      ).length;
    const before = await count();
    // Every step this run has taken, replayed (as after a crash between the step and its job's completion).
    for (let step = 0; step < run.step; step++) {
      await t.app.flows.step({
        companyId: s.companyId,
        ticketId: said.ticketId,
        runId: run.id,
        step,
      } as FlowStepJob);
    }
    expect(await count()).toBe(before);
    expect(await runOf(said.ticketId)).toMatchObject({ step: run.step, status: 'waitingUntil' });
    await flush();
    expect(replies(s, from)).toEqual(['Olá Maria!', 'Vamos lá.', 'Escolha:\n\n*1* - Vendas\n*2* - Sair']);
  });

  it('runs the nodes that need no wait in one step job: start, a message and the interval after it', async () => {
    const s = await setup(() => ({
      nodes: [
        START,
        flowNode('hello', 'message', { label: 'Olá!' }),
        flowNode('wait', 'interval', { sec: 2 }),
        flowNode('pick', 'randomizer', { percent: 100 }),
        flowNode('second', 'message', { label: 'Primeira.' }),
        flowNode('third', 'message', { label: 'Segunda.' }),
      ],
      connections: [
        flowEdge('1', 'hello'),
        flowEdge('hello', 'wait'),
        flowEdge('wait', 'pick'),
        flowEdge('pick', 'second'),
        flowEdge('second', 'third'),
      ],
    }));
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    const jobsOf = async (state: string) =>
      (
        await t.database.executor.executeSql(
          `select id from pgboss.job where name = $1 and state = $2 and (data->>'ticketId')::int = $3`,
          [FLOW_STEP_JOB, state, said.ticketId],
        )
      ).rows.length;
    // One job ran start, greeting and interval; the step number counts the three nodes.
    expect(await jobsOf('completed')).toBe(1);
    expect(await jobsOf('created')).toBe(1);
    expect(said.replies()).toEqual(['Olá!']);
    expect(await runOf(said.ticketId)).toMatchObject({ step: 3, status: 'waitingUntil', nodeId: 'pick' });
    await flush();
    // After the interval: the randomizer and the first message in one job, the second message in another.
    expect(said.replies()).toEqual(['Olá!', 'Primeira.', 'Segunda.']);
    expect(await jobsOf('completed')).toBe(3);
    expect(await runOf(said.ticketId)).toMatchObject({ step: 6, status: 'ended' });
  });

  it('runs the node after an answer with the answer when it leaves the run busy', async () => {
    const s = await setup(() => ({
      nodes: [
        START,
        flowNode('menu', 'menu', { message: 'Escolha:', arrayOption: [{ number: 1, value: 'Sim' }] }),
        flowNode('ask', 'question', { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } }),
        flowNode('wait', 'interval', { sec: 2 }),
        flowNode('thanks', 'message', { label: 'Obrigado, {{nome}}.' }),
      ],
      connections: [
        flowEdge('1', 'menu'),
        flowEdge('menu', 'ask', 'a1'),
        flowEdge('ask', 'wait'),
        flowEdge('wait', 'thanks'),
      ],
    }));
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    const jobs = async () =>
      (
        await t.database.executor.executeSql(
          `select state from pgboss.job where name = $1 and (data->>'ticketId')::int = $2`,
          [FLOW_STEP_JOB, said.ticketId],
        )
      ).rows.map((row) => String(row.state));
    expect(await jobs()).toEqual(['completed']);
    await say(s, from, '1');
    // The question waits for input: it keeps a step job of its own, so the menu's answer, if its
    // bot job runs again after a crash, finds the run busy and is not taken as the name.
    expect(replies(s, from)).toEqual(['Escolha:\n\n*1* - Sim', 'Seu nome?']);
    expect(await jobs()).toEqual(['completed', 'completed']);
    await say(s, from, 'Ana');
    // The question's answer ran the interval itself: no step job but the one its interval delays.
    expect((await jobs()).sort()).toEqual(['completed', 'completed', 'created']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'waitingUntil', nodeId: 'thanks', step: 6 });
    await flush();
    expect(replies(s, from).at(-1)).toBe('Obrigado, Ana.');
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended', step: 7 });
  });

  it('does not take an answer run again after a crash as the answer to the next node', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    await flush();
    expect((await runOf(said.ticketId))?.nodeId).toBe('menu');
    // The answer's bot job, run twice (a crash before it was marked done) before the next step ran.
    const job = { companyId: s.companyId, ticketId: said.ticketId, messageId: 0, ticketCreated: false };
    expect(await t.app.flows.answer(s.companyId, said.ticketId, job, '1')).toBe(true);
    expect(await t.app.flows.answer(s.companyId, said.ticketId, job, '1')).toBe(true);
    await flush();
    expect(replies(s, from).at(-1)).toBe('Seu nome?');
    expect(await runOf(said.ticketId)).toMatchObject({
      status: 'waitingInput',
      nodeId: 'ask',
      variables: {},
    });
  });

  it('resumes after a crash on the same node without sending a step twice', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    const { rows } = (await t.database.executor.executeSql(
      `select id, data from pgboss.job where name = $1 and state = 'created' and (data->>'ticketId')::int = $2`,
      [FLOW_STEP_JOB, said.ticketId],
    )) as { rows: { id: string; data: FlowStepJob }[] };
    expect(rows).toHaveLength(1);
    // The process ran the interval's step (its message is stored and sent, the next step queued)
    // and was killed before it could mark the job done: the job stays active, claimed by this node.
    await t.app.flows.step(rows[0]!.data);
    await t.database.executor.executeSql(
      `update pgboss.job set state = 'active', started_on = now(), start_after = now(),
         data = data || jsonb_build_object('_claimedBy', $2::text)
       where id = $1`,
      [rows[0]!.id, t.config.nodeId],
    );
    const node = await buildSecondNode(t, { nodeId: t.config.nodeId, simulator: t.app.simulator });
    try {
      await node.sessions.start(s.companyId, s.whatsappId, { force: false });
      // The restarted node runs the left job again (a no-op: its step is past) and the next step.
      expect(await node.jobs.drain()).toBeGreaterThanOrEqual(2);
    } finally {
      await node.close();
    }
    expect(replies(s, from)).toEqual(['Olá Maria!', 'Vamos lá.', 'Escolha:\n\n*1* - Vendas\n*2* - Sair']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'waitingInput', nodeId: 'menu' });
  });

  it('gives the ticket to the agents when its flow is deleted mid-run', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    const [held] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, said.ticketId));
    expect(held?.useIntegration).toBe(true);
    const res = await inject('DELETE', `/api/flowbuilder/${s.flowId}`, s.admin);
    expect(res.statusCode).toBe(204);
    await flush();
    expect(replies(s, from)).toEqual(['Olá Maria!']);
    expect(await runOf(said.ticketId)).toBeUndefined();
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, said.ticketId));
    expect(ticket).toMatchObject({ status: 'pending', useIntegration: false });
  });

  it('ends the run when an agent takes the ticket', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    const accept = await inject('PUT', `/api/tickets/${said.ticketId}`, s.admin, {
      status: 'open',
      userId: s.admin.id,
    });
    expect(accept.statusCode).toBe(200);
    await flush();
    expect(replies(s, from)).toEqual(['Olá Maria!']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended' });
  });

  it('stops a run at its next step when the company loses flows or its due date passes', async () => {
    // Positive control: the same flow on the full plan sends the step after the interval.
    const control = await setup();
    const controlFrom = customerNumber();
    await say(control, controlFrom, 'oi');
    await flush();
    expect(replies(control, controlFrom)).toContain('Vamos lá.');

    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'waitingUntil' });
    await downgradeToNoFlags(t.app, s.companyId);
    await flush();
    expect(replies(s, from)).toEqual(['Olá Maria!']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended' });
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, said.ticketId));
    expect(ticket).toMatchObject({ status: 'pending', userId: null, useIntegration: false });

    const expired = await setup();
    const expiredFrom = customerNumber();
    const started = await say(expired, expiredFrom, 'oi');
    await setDueDate(t.app, expired.companyId, new Date(Date.now() - 60_000));
    await flush();
    expect(replies(expired, expiredFrom)).toEqual(['Olá Maria!']);
    expect(await runOf(started.ticketId)).toMatchObject({ status: 'ended' });
  });

  it('ends a run waiting for an answer when the company lost flows, sending nothing more', async () => {
    const s = await setup();
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    await flush();
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'waitingInput', nodeId: 'menu' });
    await downgradeToNoFlags(t.app, s.companyId);
    expect((await say(s, from, '1')).replies()).toEqual([]);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended' });
    const [ticket] = await t.app.ctx.db.select().from(tickets).where(eq(tickets.id, said.ticketId));
    expect(ticket).toMatchObject({ status: 'pending', useIntegration: false });
  });

  it('follows the randomizer odds and hands a failing bot node to a human with a note', async () => {
    const s = await setup(() => ({
      nodes: [
        START,
        flowNode('coin', 'randomizer', { percent: 0 }),
        flowNode('never', 'message', { label: 'nunca' }),
        flowNode('always', 'message', { label: 'sempre' }),
        flowNode('bot', 'typebot', {
          // Nothing listens there: the bot fails and a human takes over.
          typebotIntegration: { name: 'Bot', urlN8N: 'http://127.0.0.1:9', typebotSlug: 'x' },
        }),
      ],
      connections: [
        flowEdge('1', 'coin'),
        flowEdge('coin', 'never', 'a'),
        flowEdge('coin', 'always', 'b'),
        flowEdge('always', 'bot'),
      ],
    }));
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    await flush();
    expect(replies(s, from)).toEqual(['sempre']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended' });
    const notes = await inject('GET', `/api/ticket-notes/list?ticketId=${said.ticketId}`, s.admin);
    expect(JSON.stringify(notes.json())).toContain('typebot');
  });

  it('lets an OpenAI node answer until it hands over, then continues the flow', async () => {
    fake.modelReply = (history) => {
      const last = history.at(-1)?.content ?? '';
      return last.includes('humano') ? 'Já chamo. #ATENDENTE#' : `IA: ${last}`;
    };
    const s = await setup((sales) => ({
      nodes: [
        START,
        flowNode('hello', 'message', { label: 'Oi, sou o assistente.' }),
        flowNode('ai', 'openai', {
          typebotIntegration: {
            name: 'IA',
            prompt: 'Responda com educação.',
            apiKey: 'sk-flow-test-key-123456',
            queueId: sales,
          },
        }),
        flowNode('after', 'message', { label: 'Voltamos ao fluxo.' }),
      ],
      connections: [flowEdge('1', 'hello'), flowEdge('hello', 'ai'), flowEdge('ai', 'after')],
    }));
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    await flush();
    expect(replies(s, from)).toEqual(['Oi, sou o assistente.']);
    expect((await say(s, from, 'qual o preço?')).replies()).toEqual(['IA: qual o preço?']);
    expect((await say(s, from, 'quero um humano')).replies()).toEqual(['Já chamo.', 'Voltamos ao fluxo.']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended' });
    const calls = fake.requests('/v1/chat/completions');
    expect(JSON.stringify(calls.at(-1)?.body)).toContain('qual o preço?');
  });

  it('lets a Typebot node converse until its flow ends, then continues the flow', async () => {
    const s = await setup(() => ({
      nodes: [
        START,
        flowNode('bot', 'typebot', {
          typebotIntegration: {
            name: 'Bot',
            urlN8N: fake.url,
            typebotSlug: 'loja',
            typebotKeywordFinish: 'sair',
          },
        }),
        flowNode('end', 'message', { label: 'Fim do bot.' }),
      ],
      connections: [flowEdge('1', 'bot'), flowEdge('bot', 'end')],
    }));
    const from = customerNumber();
    const said = await say(s, from, 'oi');
    await flush();
    expect(replies(s, from)).toEqual([
      'Olá! Eu sou o bot.',
      'Escolha um assunto:',
      '*1* - Vendas\n*2* - Suporte',
    ]);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'waitingInput', nodeId: 'bot' });
    expect((await say(s, from, '1')).replies()).toEqual(['Ótimo, vendas! Qual produto?']);
    expect((await say(s, from, 'Notebook')).replies()).toEqual(['Obrigado!', 'Fim do bot.']);
    expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended', botState: null });
  });

  it('a Typebot node whose URL is not public reaches nothing and hands the ticket over, as if unreachable', async () => {
    const graph = () => ({
      nodes: [
        START,
        flowNode('bot', 'typebot', {
          typebotIntegration: { name: 'Bot', urlN8N: fake.url, typebotSlug: 'loja' },
        }),
        flowNode('end', 'message', { label: 'Fim do bot.' }),
      ],
      connections: [flowEdge('1', 'bot'), flowEdge('bot', 'end')],
    });
    const s = await setup(graph);
    const before = fake.requests('/api/v1/typebots').length;
    t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = false;
    try {
      const from = customerNumber();
      const said = await say(s, from, 'oi');
      await flush();
      expect(replies(s, from)).toEqual([]);
      expect(fake.requests('/api/v1/typebots').length).toBe(before);
      expect(await runOf(said.ticketId)).toMatchObject({ status: 'ended' });
    } finally {
      t.app.ctx.config.OUTBOUND_ALLOW_PRIVATE_URLS = true;
    }
    // Positive control: with the switch on, the same node reaches the Typebot.
    const open = await setup(graph);
    const from = customerNumber();
    await say(open, from, 'oi');
    await flush();
    expect(replies(open, from)[0]).toBe('Olá! Eu sou o bot.');
    expect(fake.requests('/api/v1/typebots').length).toBe(before + 1);
  });

  it('starts the flow named like a flowbuilder integration', async () => {
    const s = await setup(() => ({
      nodes: [START, flowNode('hi', 'message', { label: 'Fluxo pela integração' })],
      connections: [flowEdge('1', 'hi')],
    }));
    const integration = await inject('POST', '/api/queueIntegration', s.admin, {
      type: 'flowbuilder',
      name: 'atendimento',
    });
    expect(integration.statusCode, integration.body).toBeLessThan(300);
    await inject('PUT', `/api/whatsapp/${s.whatsappId}`, s.admin, { integrationId: integration.json().id });
    const from = customerNumber();
    await say(s, from, 'bom dia');
    await flush();
    expect(replies(s, from)).toEqual(['Fluxo pela integração']);
  });

  it("starts the connection's welcome flow for a new ticket no phrase matched, once", async () => {
    const s = await setup(
      () => ({
        nodes: [
          START,
          flowNode('hi', 'message', { label: 'Bem-vindo!' }),
          flowNode('ask', 'question', { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } }),
        ],
        connections: [flowEdge('1', 'hi'), flowEdge('hi', 'ask')],
      }),
      'promoção',
    );
    const other = await createTenant(t.app);
    const otherFlow = await inject('POST', '/api/flowbuilder', other.admin, { name: 'Outro' });
    const put = (flowIdWelcome: number | null) =>
      inject('PUT', `/api/whatsapp/${s.whatsappId}`, s.admin, { flowIdWelcome });
    // Another company's flow is refused.
    expect((await put(otherFlow.json().id)).statusCode).toBe(404);
    const set = await put(s.flowId);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().flowIdWelcome).toBe(s.flowId);

    const from = customerNumber();
    const first = await say(s, from, 'bom dia');
    await flush();
    expect(replies(s, from)).toEqual(['Bem-vindo!', 'Seu nome?']);
    expect((await say(s, from, 'Ana')).replies()).toEqual([]);
    expect(await runOf(first.ticketId)).toMatchObject({ status: 'ended', variables: { nome: 'Ana' } });
    // Later messages of the same ticket do not start it again.
    await say(s, from, 'olá de novo');
    await flush();
    expect(replies(s, from)).toEqual(['Bem-vindo!', 'Seu nome?']);

    // Without a welcome flow a new ticket starts nothing.
    expect((await put(null)).json().flowIdWelcome).toBeNull();
    const quiet = await say(s, customerNumber(), 'bom dia');
    expect(await runOf(quiet.ticketId)).toBeUndefined();
  });
});
