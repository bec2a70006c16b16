/**
 * A PUT changes what its body names and keeps every other field, on every route: a record is
 * created with every field set, updated with one field, and read back. The positive control of each
 * case is the named field, which does change. A new PUT route must join CASES (or EXEMPT, with the
 * reason).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, t, useAppSuite } from './app-suite.js';
import {
  createQueue,
  createSimulatorConnection,
  createTenant,
  createUser,
  customerNumber,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from './factories.js';
import { VALID_BILLING_PROFILE } from './fixtures.js';

useAppSuite();
let a: TenantFixture;
let otherQueueId: number;
beforeAll(async () => {
  a = await createTenant(t.app);
  otherQueueId = await createQueue(t.app, a.companyId);
});

/** `method url` as `user` with an optional JSON payload: the JSON answer; an answer of 300 or more throws. */
async function callAs(user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const res = await inject(method, url, user, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** `callAs` the admin of company A. */
const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  callAs(a.admin, method, url, payload);

interface Case {
  /** Creates the record with every field set; answers its id. */
  create(): Promise<number | string>;
  /** The body of the PUT: one field. */
  change: Record<string, unknown>;
  /** Reads the record back in the shape to compare. */
  read(id: number | string): Promise<Record<string, unknown>>;
  /** The PUT is made by the platform super user (super-only routes). */
  super?: boolean;
  /** The body field carrying the record's id, for PUTs without a path id (the spec's PUT /flowbuilder). */
  idField?: string;
}

/** `call` as a platform super user (announcements and helps are written by the super user only). */
async function asSuper(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  const superUser = await createUser(t.app, a.companyId, { profile: 'admin', super: true });
  return callAs(superUser, method, url, payload);
}

/** Fields that a PUT changes by itself. */
const VOLATILE = new Set(['updatedAt', 'lastMessage', 'online']);

const CASES: Record<string, Case> = {
  'PUT /api/flowbuilder': {
    create: async () => {
      const flow = await call('POST', '/api/flowbuilder', { name: 'Fluxo completo' });
      await call('PUT', '/api/flowbuilder', { flowId: flow.id, active: false });
      return flow.id;
    },
    idField: 'flowId',
    change: { name: 'Fluxo renomeado' },
    read: async (id) => (await call('GET', `/api/flowbuilder/flow/${id}`)).flow,
  },
  'PUT /api/flowcampaign': {
    create: async () => {
      const flow = await call('POST', '/api/flowbuilder', { name: 'Fluxo da frase' });
      const whatsappId = await createSimulatorConnection(t.app, a.admin);
      return (
        await call('POST', '/api/flowcampaign', {
          name: 'Frase completa',
          flowId: flow.id,
          whatsappId,
          phrase: 'oi',
          status: false,
        })
      ).id;
    },
    idField: 'id',
    change: { phrase: 'olá' },
    read: (id) => call('GET', `/api/flowcampaign/${id}`),
  },
  'PUT /api/prompt/:id': {
    create: async () =>
      (
        await call('POST', '/api/prompt', {
          name: 'Assistente completo',
          prompt: 'Você é o assistente da loja. Responda com educação, em poucas palavras e em português.',
          model: 'gpt-4o-mini',
          maxTokens: 250,
          temperature: 0.4,
          maxMessages: 7,
          apiKey: 'sk-full-record-key-0000',
          queueId: a.queueId,
        })
      ).id,
    change: { name: 'Assistente renomeado' },
    read: (id) => call('GET', `/api/prompt/${id}`),
  },
  'PUT /api/queueIntegration/:id': {
    create: async () =>
      (
        await call('POST', '/api/queueIntegration', {
          type: 'typebot',
          name: 'Typebot completo',
          language: 'es',
          urlN8N: 'https://typebot.example.test',
          typebotSlug: 'loja',
          typebotExpires: 5,
          typebotDelayMessage: 1500,
          typebotKeywordFinish: 'sair',
          typebotKeywordRestart: 'reiniciar',
          typebotRestartMessage: 'Recomeçando',
          typebotUnknownMessage: 'Não entendi',
        })
      ).id,
    change: { typebotSlug: 'loja-2' },
    read: (id) => call('GET', `/api/queueIntegration/${id}`),
  },
  'PUT /api/queue/:id': {
    create: async () =>
      (
        await call('POST', '/api/queue', {
          name: 'Fila completa',
          color: '#a1b2c3',
          orderQueue: 3,
          greetingMessage: 'Bem-vindo à fila',
          outOfHoursMessage: 'Estamos fora do horário',
        })
      ).id,
    change: { name: 'Fila renomeada' },
    read: (id) => call('GET', `/api/queue/${id}`),
  },
  'PUT /api/queue-options/:id': {
    create: async () =>
      (
        await call('POST', '/api/queue-options', {
          queueId: a.queueId,
          title: 'Opção',
          message: 'Mensagem da opção',
          option: '7',
        })
      ).id,
    change: { title: 'Opção renomeada' },
    read: async (id) =>
      ((await call('GET', `/api/queue-options?queueId=${a.queueId}`)) as { id: number }[]).find(
        (o) => o.id === id,
      )!,
  },
  'PUT /api/quick-messages/:id': {
    create: async () =>
      (
        await call('POST', '/api/quick-messages', {
          shortcode: 'saudacao',
          message: 'Olá, tudo bem?',
          geral: true,
        })
      ).id,
    change: { shortcode: 'saudacao2' },
    read: (id) => call('GET', `/api/quick-messages/${id}`),
  },
  'PUT /api/schedules/:id': {
    create: async () => {
      const contact = await call('POST', '/api/contacts', { name: 'Agendado', number: customerNumber() });
      return (
        await call('POST', '/api/schedules', {
          body: 'Lembrete da consulta',
          contactId: contact.id,
          sendAt: new Date(Date.now() + 3_600_000).toISOString(),
        })
      ).id;
    },
    change: { body: 'Lembrete alterado' },
    read: (id) => call('GET', `/api/schedules/${id}`),
  },
  'PUT /api/campaigns/:id': {
    create: async () => {
      const list = await call('POST', '/api/contact-lists', { name: 'Lista da campanha' });
      return (
        await call('POST', '/api/campaigns', {
          name: 'Campanha completa',
          message1: 'Primeira variante',
          message2: 'Segunda variante',
          contactListId: list.id,
          scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
          templateName: 'promo',
          templateLanguage: 'pt_BR',
        })
      ).id;
    },
    change: { name: 'Campanha renomeada' },
    read: (id) => call('GET', `/api/campaigns/${id}`),
  },
  'PUT /api/files/:id': {
    create: async () =>
      (
        await call('POST', '/api/files', {
          name: 'Tabela de preços',
          message: 'Segue a tabela',
          options: [{ name: 'Preços' }],
        })
      ).id,
    change: { name: 'Tabela nova' },
    read: (id) => call('GET', `/api/files/${id}`),
  },
  'PUT /api/contact-lists/:id': {
    create: async () => (await call('POST', '/api/contact-lists', { name: 'Lista completa' })).id,
    change: { name: 'Lista renomeada' },
    read: (id) => call('GET', `/api/contact-lists/${id}`),
  },
  'PUT /api/contact-list-items/:id': {
    create: async () => {
      const list = (await call('POST', '/api/contact-lists', { name: 'Lista de itens' })) as { id: number };
      return (
        await call('POST', '/api/contact-list-items', {
          contactListId: list.id,
          name: 'Maria Silva',
          number: '5511999990001',
          email: 'maria@exemplo.com.br',
        })
      ).id;
    },
    change: { name: 'Maria Souza' },
    read: (id) => call('GET', `/api/contact-list-items/${id}`),
  },
  'PUT /api/tags/:id': {
    create: async () =>
      (await call('POST', '/api/tags', { name: 'Etiqueta', color: '#112233', kanban: 1 })).id,
    change: { name: 'Etiqueta nova' },
    read: (id) => call('GET', `/api/tags/${id}`),
  },
  'PUT /api/contacts/:id': {
    create: async () =>
      (
        await call('POST', '/api/contacts', {
          name: 'Cliente completo',
          number: customerNumber(),
          email: 'cliente@example.test',
          extraInfo: [{ name: 'CPF', value: '123' }],
        })
      ).id,
    change: { name: 'Cliente renomeado' },
    read: (id) => call('GET', `/api/contacts/${id}`),
  },
  'PUT /api/users/:id': {
    create: async () => {
      const whatsappId = await createSimulatorConnection(t.app, a.admin);
      return (
        await call('POST', '/api/users', {
          name: 'Agente completo',
          email: `agente-${Date.now()}@example.test`,
          password: 'senha-123',
          profile: 'user',
          allTicket: 'enabled',
          whatsappId,
          queueIds: [a.queueId, otherQueueId],
        })
      ).id;
    },
    change: { name: 'Agente renomeado' },
    read: (id) => call('GET', `/api/users/${id}`),
  },
  'PUT /api/whatsapp/:id': {
    create: async () =>
      (
        await call('POST', '/api/whatsapp', {
          name: `Conexão ${Date.now()}`,
          provider: 'simulator',
          greetingMessage: 'Escolha uma fila',
          complationMessage: 'Até logo',
          outOfHoursMessage: 'Fora do horário',
          ratingMessage: 'Avalie',
          expiresInactiveMessage: 'Encerrado por inatividade',
          expiresTicket: 30,
          timeUseBotQueues: 5,
          maxUseBotQueues: 4,
          timeToTransfer: 10,
          transferQueueId: a.queueId,
          queueIds: [a.queueId, otherQueueId],
        })
      ).id,
    change: { name: `Conexão renomeada ${Date.now()}` },
    read: async (id) => {
      const {
        status: _s,
        qrcode: _q,
        retries: _r,
        session: _n,
        ...rest
      } = await call('GET', `/api/whatsapp/${id}`);
      return rest;
    },
  },
  'PUT /api/tickets/:id': {
    create: async () => {
      const whatsappId = await createSimulatorConnection(t.app, a.admin);
      const { ticketId } = await injectMessage(t.app, a.admin, whatsappId, {
        from: customerNumber(),
        body: 'oi',
      });
      await call('PUT', `/api/tickets/${ticketId}`, {
        status: 'open',
        userId: a.admin.id,
        queueId: a.queueId,
      });
      return ticketId;
    },
    change: { useIntegration: true },
    read: (id) => call('GET', `/api/tickets/${id}`),
  },
  'PUT /api/chats/:id': {
    create: async () => (await call('POST', '/api/chats', { title: 'Equipe', users: [a.agent.id] })).id,
    change: { title: 'Equipe renomeada' },
    read: async (id) =>
      ((await call('GET', '/api/chats')) as { records: { id: number }[] }).records.find((c) => c.id === id)!,
  },
  'PUT /api/announcements/:id': {
    create: async () =>
      (
        await asSuper('POST', '/api/announcements', {
          title: 'Aviso',
          text: 'Texto',
          priority: 1,
          status: true,
        })
      ).id,
    change: { title: 'Aviso novo' },
    read: (id) => asSuper('GET', `/api/announcements/${id}`),
    super: true,
  },
  'PUT /api/helps/:id': {
    create: async () =>
      (
        await asSuper('POST', '/api/helps', {
          title: 'Ajuda',
          description: 'Como usar',
          video: 'dQw4w9WgXcQ',
        })
      ).id,
    change: { description: 'Como usar o inbox' },
    read: async (id) =>
      ((await asSuper('GET', '/api/helps/list')) as { id: number }[]).find((h) => h.id === id)!,
    super: true,
  },
  'PUT /api/billing/profile': {
    create: async () => {
      await call('PUT', '/api/billing/profile', VALID_BILLING_PROFILE);
      return 'profile';
    },
    change: { city: 'Campinas' },
    read: () => call('GET', '/api/billing/profile'),
  },
  'PUT /api/billing/pix-settings': {
    create: async () => {
      await asSuper('PUT', '/api/billing/pix-settings', {
        pixKey: 'financeiro@zapdesk.test',
        merchantName: 'Zapdesk',
        merchantCity: 'Curitiba',
      });
      return 'pix';
    },
    change: { merchantName: 'Zapdesk Ltda' },
    read: () => asSuper('GET', '/api/billing/pix-settings'),
    super: true,
  },
  'PUT /api/webhooks/:id': {
    create: async () =>
      (
        await call('POST', '/api/webhooks', {
          url: 'https://hooks.example.com/erp',
          events: ['message.created', 'ticket.closed'],
          active: false,
          description: 'ERP',
        })
      ).id,
    change: { url: 'https://hooks.example.com/erp2' },
    read: (id) => call('GET', `/api/webhooks/${id}`),
  },
  'PUT /api/plans/:id': {
    create: async () =>
      (
        await asSuper('POST', '/api/plans', {
          name: `Plano ${Date.now()}`,
          value: 49.9,
          users: 4,
          connections: 2,
          queues: 5,
          useCampaigns: true,
          useKanban: true,
          useOpenAi: true,
        })
      ).id,
    change: { queues: 6 },
    read: (id) => asSuper('GET', `/api/plans/${id}`),
    super: true,
  },
  'PUT /api/companies/:id': {
    create: async () => {
      const plans = (await asSuper('GET', '/api/plans/all')) as { id: number }[];
      return (
        await asSuper('POST', '/api/companies', {
          name: 'Empresa Cheia',
          email: `cheia-${Date.now()}@example.test`,
          phone: '11987654321',
          planId: plans[0]!.id,
          status: true,
          campaignsEnabled: true,
          dueDate: '2030-05-01T12:00:00.000Z',
          recurrence: 'TRIMESTRAL',
        })
      ).id;
    },
    change: { name: 'Empresa Renomeada' },
    read: async (id) => {
      const rows = (await asSuper('GET', '/api/companies/list')) as { id: number }[];
      return rows.find((c) => c.id === id)!;
    },
    super: true,
  },
};

/** PUT routes whose body has a single field, or none. */
const EXEMPT: Record<string, string> = {
  'PUT /api/companies/:id/schedules': 'the body is the one list of schedules',
  'PUT /api/settings/:key': 'the body is the one value of the setting',
  'PUT /api/crm-update-invoice':
    'an action, not an edit: cancels the open CRM invoice or changes its plan and period; tested in crm.test.ts',
  'PUT /api/crm-update-customer':
    'forwards the whole customer to the CRM (the spec client sends every field); tested in crm.test.ts',
  'PUT /api/whatsappsession/:id': 'no body: restarts the session',
  'PUT /api/whatsapp/:id/cloud':
    'saving restarts the session against the Graph API; channels/cloud/cloud.test.ts checks omitted fields (secrets too) keep their values',
  'PUT /api/notifications/:id/read':
    "no body: reads the bell entry's ticket (test/classic-client-fork.test.ts)",
  'PUT /api/ticket-tags/:ticketId/:tagId':
    "no body: adds the path's tag; the ticket's other tags stay (modules/kanban/kanban.test.ts)",
  'PUT /api/push/preferences':
    'changes only the flags its body names, the others stay (modules/push/push.test.ts)',
  'PUT /api/push/viewing': 'the body is the one ticket on screen (or none)',
};

describe('PUT keeps the fields its body does not name', () => {
  it('covers every PUT route', () => {
    const routes = t.app.routeTable.filter((r) => r.method === 'PUT').map((r) => `PUT ${r.url}`);
    expect([...new Set(routes)].sort()).toEqual([...Object.keys(CASES), ...Object.keys(EXEMPT)].sort());
  });

  for (const [route, c] of Object.entries(CASES)) {
    it(route, async () => {
      const id = await c.create();
      const before = await c.read(id);
      const url = route.replace('PUT ', '').replace(/:[a-zA-Z]+/, String(id));
      await (c.super ? asSuper : call)('PUT', url, c.idField ? { ...c.change, [c.idField]: id } : c.change);
      const after = await c.read(id);
      for (const [key, value] of Object.entries(c.change)) expect(after[key], key).toEqual(value);
      for (const key of Object.keys(before)) {
        if (key in c.change || VOLATILE.has(key)) continue;
        expect(after[key], key).toEqual(before[key]);
      }
    });
  }
});
