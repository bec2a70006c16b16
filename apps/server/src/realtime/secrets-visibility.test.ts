/**
 * Secrets reach only the people who may manage them (docs/security.md, "Secrets and tokens"):
 * a connection's API token, an integration's signing secret and a prompt's key go to the company's
 * admins, redacted to everybody else, on REST and on the sockets alike (real socket.io clients).
 */
import { companyChannel } from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTenant, type TenantFixture, type TestUser } from '../test/factories.js';
import { collectUntilMarker, listenLocally, openSocket, socketReady } from '../test/sockets.js';
import { createTestApp, type TestApp } from '../test/test-app.js';

let t: TestApp;
let a: TenantFixture;
let agentSocket: Socket;
let adminSocket: Socket;

beforeAll(async () => {
  t = await createTestApp();
  const url = await listenLocally(t.app);
  a = await createTenant(t.app);
  agentSocket = openSocket(url, a.agent.token);
  adminSocket = openSocket(url, a.admin.token);
  await Promise.all([agentSocket, adminSocket].map(socketReady));
});
afterAll(async () => {
  for (const s of [agentSocket, adminSocket]) s.close();
  await t.close();
});

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user), ...(payload ? { payload } : {}) });

/** What the agent's and the admin's sockets receive on `channel` of company A while `act` runs. */
async function seen<T>(
  channel: 'whatsapp' | 'whatsappSession' | 'queueIntegration' | 'prompt' | 'user',
  act: () => unknown,
) {
  const [agent, admin] = await collectUntilMarker<T>(
    t.app,
    [agentSocket, adminSocket],
    companyChannel(a.companyId, channel),
    act,
  );
  return { agent: agent!, admin: admin! };
}

type WhatsappEvent = { action: string; whatsapp?: { id: number; token: string | null } };
type SessionEvent = { action: string; session?: { id: number; token: string | null } };

describe('secrets on sockets and REST', () => {
  it("a connection's API token reaches the admins' sockets only (whatsapp and whatsappSession)", async () => {
    let id = 0;
    const created = await seen<SessionEvent>('whatsappSession', async () => {
      const res = await call(a.admin, 'POST', '/api/whatsapp', {
        name: 'Vendas',
        provider: 'simulator',
        token: 'tok_chosen_by_client_0123456789abcdef',
      });
      expect(res.statusCode, res.body).toBe(201);
      id = res.json().id;
    });
    const token = (await call(a.admin, 'GET', `/api/whatsapp/${id}`)).json().token as string;
    expect(token).toEqual(expect.any(String));
    expect(token.length).toBeGreaterThan(0);
    // Positive control: the admin's socket got the token.
    expect(created.admin.some((e) => e.session?.id === id && e.session.token === token)).toBe(true);
    expect(created.agent.some((e) => e.session?.id === id)).toBe(true);
    for (const e of created.agent) expect(e.session?.token ?? null).toBeNull();
    expect(JSON.stringify(created.agent)).not.toContain(token);

    const saved = await seen<WhatsappEvent>('whatsapp', async () => {
      const res = await call(a.admin, 'PUT', `/api/whatsapp/${id}`, {
        name: 'Vendas 2',
        token: 'tok_chosen_by_client_0123456789abcdef',
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    const now = (await call(a.admin, 'GET', `/api/whatsapp/${id}`)).json().token as string;
    expect(saved.admin.some((e) => e.whatsapp?.id === id && e.whatsapp.token === now)).toBe(true);
    expect(saved.agent.some((e) => e.whatsapp?.id === id)).toBe(true);
    for (const e of saved.agent) expect(e.whatsapp?.token ?? null).toBeNull();
    expect(JSON.stringify(saved.agent)).not.toContain(now);

    // REST: the agent's list and read carry no token either; the admin's do.
    const agentList = (await call(a.agent, 'GET', '/api/whatsapp')).json() as {
      id: number;
      token: unknown;
    }[];
    expect(agentList.find((w) => w.id === id)?.token).toBeNull();
    expect((await call(a.agent, 'GET', `/api/whatsapp/${id}`)).json().token).toBeNull();
    const adminList = (await call(a.admin, 'GET', '/api/whatsapp')).json() as {
      id: number;
      token: unknown;
    }[];
    expect(adminList.find((w) => w.id === id)?.token).toBe(now);
  });

  it("an integration's signing secret reaches admins only, on the socket and in REST", async () => {
    let id = 0;
    let secret = '';
    const created = await seen<{ action: string; queueIntegration?: { id: number; secret: string } }>(
      'queueIntegration',
      async () => {
        const res = await call(a.admin, 'POST', '/api/queueIntegration', {
          type: 'webhook',
          name: 'ERP',
          urlN8N: 'http://93.184.216.34/erp',
        });
        expect(res.statusCode, res.body).toBe(200);
        id = res.json().id;
        secret = res.json().secret;
      },
    );
    expect(secret.length).toBeGreaterThanOrEqual(20);
    expect(created.admin.find((e) => e.queueIntegration?.id === id)?.queueIntegration?.secret).toBe(secret);
    expect(created.agent.find((e) => e.queueIntegration?.id === id)?.queueIntegration?.secret).toBe('');
    expect(JSON.stringify(created.agent)).not.toContain(secret);

    const updated = await seen<{ action: string; queueIntegration?: { id: number; secret: string } }>(
      'queueIntegration',
      async () => {
        expect(
          (await call(a.admin, 'PUT', `/api/queueIntegration/${id}`, { name: 'ERP 2' })).statusCode,
        ).toBe(200);
      },
    );
    expect(updated.admin.find((e) => e.queueIntegration?.id === id)?.queueIntegration?.secret).toBe(secret);
    expect(JSON.stringify(updated.agent)).not.toContain(secret);
    expect(updated.agent.length).toBeGreaterThan(0);

    const agentList = (await call(a.agent, 'GET', '/api/queueIntegration')).json();
    expect(agentList.queueIntegrations.find((i: { id: number }) => i.id === id)?.secret).toBe('');
    expect((await call(a.agent, 'GET', `/api/queueIntegration/${id}`)).json().secret).toBe('');
    const adminList = (await call(a.admin, 'GET', '/api/queueIntegration')).json();
    expect(adminList.queueIntegrations.find((i: { id: number }) => i.id === id)?.secret).toBe(secret);
  });

  it("a prompt's key (even masked) reaches admins only", async () => {
    let id = 0;
    const created = await seen<{ action: string; prompt?: { id: number; apiKey: string } }>(
      'prompt',
      async () => {
        const res = await call(a.admin, 'POST', '/api/prompt', {
          name: 'Assistente',
          prompt: 'Você é o assistente da empresa. Responda com educação e poucas palavras, sempre.',
          apiKey: 'sk-live-secret-key-abcdef-9876',
          queueId: a.queueId,
        });
        expect(res.statusCode, res.body).toBe(200);
        id = res.json().id;
      },
    );
    expect(created.admin.find((e) => e.prompt?.id === id)?.prompt?.apiKey).toBe('sk-…9876');
    expect(created.agent.find((e) => e.prompt?.id === id)?.prompt?.apiKey).toBe('');
    const agentList = (await call(a.agent, 'GET', '/api/prompt')).json();
    expect(agentList.prompts.find((p: { id: number }) => p.id === id)?.apiKey).toBe('');
    expect((await call(a.agent, 'GET', `/api/prompt/${id}`)).json().apiKey).toBe('');
    expect((await call(a.admin, 'GET', `/api/prompt/${id}`)).json().apiKey).toBe('sk-…9876');
  });

  it("a user's billing data reaches admins' sockets only", async () => {
    const updated = await seen<{ action: string; user?: { id: number; cnpjCpf: string; phone: string } }>(
      'user',
      async () => {
        const res = await call(a.agent, 'PUT', `/api/users/${a.agent.id}`, {
          phone: '(11) 91234-5678',
          cnpjCpf: '295.379.955-93',
        });
        expect(res.statusCode, res.body).toBe(200);
      },
    );
    const mine = (e: { user?: { id: number } }) => e.user?.id === a.agent.id;
    expect(updated.admin.find(mine)?.user).toMatchObject({
      phone: '(11) 91234-5678',
      cnpjCpf: '295.379.955-93',
    });
    expect(updated.agent.find(mine)?.user).toMatchObject({ phone: '', cnpjCpf: '' });
  });
});
