/**
 * Secrets reach only the people who may manage them (docs/security.md, "Secrets and tokens"):
 * a connection's API token, an integration's signing secret and a prompt's key go to the company's
 * admins, redacted to everybody else, on REST and on the sockets alike (real socket.io clients).
 */
import { companyChannel } from '@zapdesk/shared';
import type { Socket } from 'socket.io-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, sockets, t, url, useListeningAppSuite } from '../test/app-suite.js';
import { createTenant, type TenantFixture } from '../test/factories.js';
import { collectUntilMarker, openSocket, socketReady } from '../test/sockets.js';

useListeningAppSuite();
let a: TenantFixture;
let agentSocket: Socket;
let adminSocket: Socket;

beforeAll(async () => {
  a = await createTenant(t.app);
  agentSocket = openSocket(url, a.agent.token);
  adminSocket = openSocket(url, a.admin.token);
  sockets.push(agentSocket, adminSocket);
  await Promise.all([agentSocket, adminSocket].map(socketReady));
});

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

/**
 * POSTs `body` to `url` as company A's admin (expecting `status`) while `seen` watches `channel`:
 * what the agent's and the admin's sockets received, and the answer's JSON as `json`.
 */
async function postSeen<T>(
  channel: Parameters<typeof seen>[0],
  url: string,
  body: object,
  status: number,
): Promise<{ agent: T[]; admin: T[]; json: Record<string, unknown> }> {
  let json: Record<string, unknown> = {};
  const got = await seen<T>(channel, async () => {
    const res = await inject('POST', url, a.admin, body);
    expect(res.statusCode, res.body).toBe(status);
    json = res.json();
  });
  return { ...got, json };
}

type WhatsappEvent = { action: string; whatsapp?: { id: number; token: string | null } };
type SessionEvent = { action: string; session?: { id: number; token: string | null } };

describe('secrets on sockets and REST', () => {
  it("a connection's API token reaches the admins' sockets only (whatsapp and whatsappSession)", async () => {
    const created = await postSeen<SessionEvent>(
      'whatsappSession',
      '/api/whatsapp',
      { name: 'Vendas', provider: 'simulator', token: 'tok_chosen_by_client_0123456789abcdef' },
      201,
    );
    const id = created.json.id as number;
    const token = (await inject('GET', `/api/whatsapp/${id}`, a.admin)).json().token as string;
    expect(token).toEqual(expect.any(String));
    expect(token.length).toBeGreaterThan(0);
    // Positive control: the admin's socket got the token.
    expect(created.admin.some((e) => e.session?.id === id && e.session.token === token)).toBe(true);
    expect(created.agent.some((e) => e.session?.id === id)).toBe(true);
    for (const e of created.agent) expect(e.session?.token ?? null).toBeNull();
    expect(JSON.stringify(created.agent)).not.toContain(token);

    const saved = await seen<WhatsappEvent>('whatsapp', async () => {
      const res = await inject('PUT', `/api/whatsapp/${id}`, a.admin, {
        name: 'Vendas 2',
        token: 'tok_chosen_by_client_0123456789abcdef',
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    const now = (await inject('GET', `/api/whatsapp/${id}`, a.admin)).json().token as string;
    expect(saved.admin.some((e) => e.whatsapp?.id === id && e.whatsapp.token === now)).toBe(true);
    expect(saved.agent.some((e) => e.whatsapp?.id === id)).toBe(true);
    for (const e of saved.agent) expect(e.whatsapp?.token ?? null).toBeNull();
    expect(JSON.stringify(saved.agent)).not.toContain(now);

    // REST: the agent's list and read carry no token either; the admin's do.
    const agentList = (await inject('GET', '/api/whatsapp', a.agent)).json() as {
      id: number;
      token: unknown;
    }[];
    expect(agentList.find((w) => w.id === id)?.token).toBeNull();
    expect((await inject('GET', `/api/whatsapp/${id}`, a.agent)).json().token).toBeNull();
    const adminList = (await inject('GET', '/api/whatsapp', a.admin)).json() as {
      id: number;
      token: unknown;
    }[];
    expect(adminList.find((w) => w.id === id)?.token).toBe(now);
  });

  it("an integration's signing secret reaches admins only, on the socket and in REST", async () => {
    const created = await postSeen<{ action: string; queueIntegration?: { id: number; secret: string } }>(
      'queueIntegration',
      '/api/queueIntegration',
      { type: 'webhook', name: 'ERP', urlN8N: 'http://93.184.216.34/erp' },
      200,
    );
    const id = created.json.id as number;
    const secret = created.json.secret as string;
    expect(secret.length).toBeGreaterThanOrEqual(20);
    expect(created.admin.find((e) => e.queueIntegration?.id === id)?.queueIntegration?.secret).toBe(secret);
    expect(created.agent.find((e) => e.queueIntegration?.id === id)?.queueIntegration?.secret).toBe('');
    expect(JSON.stringify(created.agent)).not.toContain(secret);

    const updated = await seen<{ action: string; queueIntegration?: { id: number; secret: string } }>(
      'queueIntegration',
      async () => {
        expect(
          (await inject('PUT', `/api/queueIntegration/${id}`, a.admin, { name: 'ERP 2' })).statusCode,
        ).toBe(200);
      },
    );
    expect(updated.admin.find((e) => e.queueIntegration?.id === id)?.queueIntegration?.secret).toBe(secret);
    expect(JSON.stringify(updated.agent)).not.toContain(secret);
    expect(updated.agent.length).toBeGreaterThan(0);

    const agentList = (await inject('GET', '/api/queueIntegration', a.agent)).json();
    expect(agentList.queueIntegrations.find((i: { id: number }) => i.id === id)?.secret).toBe('');
    expect((await inject('GET', `/api/queueIntegration/${id}`, a.agent)).json().secret).toBe('');
    const adminList = (await inject('GET', '/api/queueIntegration', a.admin)).json();
    expect(adminList.queueIntegrations.find((i: { id: number }) => i.id === id)?.secret).toBe(secret);
  });

  it("a prompt's key (even masked) reaches admins only", async () => {
    const created = await postSeen<{ action: string; prompt?: { id: number; apiKey: string } }>(
      'prompt',
      '/api/prompt',
      {
        name: 'Assistente',
        prompt: 'Você é o assistente da empresa. Responda com educação e poucas palavras, sempre.',
        apiKey: 'sk-live-secret-key-abcdef-9876',
        queueId: a.queueId,
      },
      200,
    );
    const id = created.json.id as number;
    expect(created.admin.find((e) => e.prompt?.id === id)?.prompt?.apiKey).toBe('sk-…9876');
    expect(created.agent.find((e) => e.prompt?.id === id)?.prompt?.apiKey).toBe('');
    const agentList = (await inject('GET', '/api/prompt', a.agent)).json();
    expect(agentList.prompts.find((p: { id: number }) => p.id === id)?.apiKey).toBe('');
    expect((await inject('GET', `/api/prompt/${id}`, a.agent)).json().apiKey).toBe('');
    expect((await inject('GET', `/api/prompt/${id}`, a.admin)).json().apiKey).toBe('sk-…9876');
  });

  it("a user's billing data reaches admins' sockets only", async () => {
    const updated = await seen<{ action: string; user?: { id: number; cnpjCpf: string; phone: string } }>(
      'user',
      async () => {
        const res = await inject('PUT', `/api/users/${a.agent.id}`, a.agent, {
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
