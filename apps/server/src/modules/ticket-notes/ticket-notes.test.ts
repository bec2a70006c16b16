/**
 * Ticket notes with mentions and the customer's presence (docs/inbox.md "Notes and mentions",
 * "Presence"): who may be mentioned, who hears of a note and of a mention, the mention push, the
 * notes on the messages page, and typing both ways through the simulator.
 */
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pushPreferences, ticketNotes } from '../../db/schema/index.js';
import {
  bearer,
  createQueue,
  createSimulatorConnection,
  createTenantPair,
  createUser,
  customerNumber,
  injectMessage,
  type TenantFixture,
  type TestUser,
} from '../../test/factories.js';
import { collectUntilMarker, listeningTestApp, socketSet } from '../../test/sockets.js';
import { PUSH_SEND_JOB } from '../push/push-notifier.js';

const live = listeningTestApp({ OUTBOUND_ALLOW_PRIVATE_URLS: 'true' });
const sockets = socketSet(() => live.url);
afterEach(() => sockets.closeAll());

let a: TenantFixture;
let b: TenantFixture;
/** A user of company A in another queue: cannot open the agent's tickets. */
let outsider: TestUser;
let whatsappId: number;

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  live.t.app.inject({ method, url, headers: bearer(user), ...(payload ? { payload } : {}) });

/** A customer writes and the admin hands the ticket to the agent. */
async function agentTicket(): Promise<{ ticketId: number; contactId: number; from: string }> {
  const from = customerNumber();
  const { ticketId } = await injectMessage(live.t.app, a.admin, whatsappId, { from, body: 'olá' });
  const res = await call(a.admin, 'PUT', `/api/tickets/${ticketId}`, { status: 'open', userId: a.agent.id });
  expect(res.statusCode, res.body).toBe(200);
  return { ticketId, contactId: res.json().contactId, from };
}

beforeAll(async () => {
  ({ a, b } = await createTenantPair(live.t.app));
  outsider = await createUser(live.t.app, a.companyId, {
    name: 'Fora da Fila',
    queueIds: [await createQueue(live.t.app, a.companyId)],
  });
  whatsappId = await createSimulatorConnection(live.t.app, a.admin);
});

describe('notes with mentions', () => {
  it('offers only the users who can open the ticket', async () => {
    const { ticketId } = await agentTicket();
    const res = await call(a.agent, 'GET', `/api/ticket-notes/mentionable?ticketId=${ticketId}`);
    expect(res.statusCode, res.body).toBe(200);
    const ids = (res.json() as { id: number }[]).map((u) => u.id);
    expect(ids).toEqual(expect.arrayContaining([a.admin.id, a.agent.id]));
    expect(ids).not.toContain(outsider.id);
    expect(
      (await call(b.admin, 'GET', `/api/ticket-notes/mentionable?ticketId=${ticketId}`)).statusCode,
    ).toBe(404);
  });

  it("refuses another company's user (404) and a user who cannot see the ticket (400), storing nothing", async () => {
    const { ticketId, contactId } = await agentTicket();
    const foreign = await call(a.admin, 'POST', '/api/ticket-notes', {
      note: 'veja isso',
      ticketId,
      contactId,
      mentionedUserIds: [b.agent.id],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NOT_FOUND');
    const blind = await call(a.admin, 'POST', '/api/ticket-notes', {
      note: 'veja isso',
      ticketId,
      contactId,
      mentionedUserIds: [outsider.id],
    });
    expect(blind.statusCode).toBe(400);
    expect(blind.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'mentionedUserIds' });
    const tooMany = await call(a.admin, 'POST', '/api/ticket-notes', {
      note: 'veja isso',
      ticketId,
      contactId,
      mentionedUserIds: Array.from({ length: 21 }, (_v, i) => i + 1),
    });
    expect(tooMany.statusCode).toBe(400);
    const stored = await live.t.app.ctx.db
      .select()
      .from(ticketNotes)
      .where(eq(ticketNotes.ticketId, ticketId));
    expect(stored).toHaveLength(0);
  });

  it('tells the ticket audience of the note and only the mentioned user of the mention', async () => {
    const { ticketId, contactId } = await agentTicket();
    const agentSocket = await sockets.online(a.agent);
    const adminSocket = await sockets.online(a.admin);
    const outsiderSocket = await sockets.online(outsider);
    const otherCompany = await sockets.online(b.admin);
    const targets = [agentSocket, adminSocket, outsiderSocket, otherCompany];
    let noteId = 0;
    const [agentGot, adminGot, outsiderGot, bGot] = await collectUntilMarker<{
      action: string;
      mention?: { noteId: number; ticketUuid: string; author: { id: number } };
      note?: { id: number };
    }>(live.t.app, targets, `company-${a.companyId}-ticketNote`, async () => {
      const res = await call(a.admin, 'POST', '/api/ticket-notes', {
        note: '@Agente pode ligar?',
        ticketId,
        contactId,
        mentionedUserIds: [a.agent.id, a.agent.id],
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().mentionedUserIds).toEqual([a.agent.id]);
      noteId = res.json().id;
    });
    expect(agentGot!.map((e) => e.action).sort()).toEqual(['create', 'mention']);
    expect(agentGot!.find((e) => e.action === 'mention')!.mention).toMatchObject({
      noteId,
      author: { id: a.admin.id },
    });
    expect(adminGot!.map((e) => e.action)).toEqual(['create']);
    expect(outsiderGot).toEqual([]);
    expect(bGot).toEqual([]);

    const mine = await call(a.agent, 'GET', '/api/ticket-notes/mentions');
    expect(mine.json()).toEqual([expect.objectContaining({ noteId, ticketId, readAt: null })]);
    expect((await call(a.admin, 'GET', '/api/ticket-notes/mentions')).json()).toEqual([]);
    expect((await call(a.admin, 'POST', `/api/ticket-notes/mentions/${noteId}/read`)).statusCode).toBe(404);
    expect((await call(a.agent, 'POST', `/api/ticket-notes/mentions/${noteId}/read`)).statusCode).toBe(204);
    expect((await call(a.agent, 'GET', '/api/ticket-notes/mentions')).json()).toEqual([]);
  });

  it('pushes a mention to the mentioned user, without its text unless previews are on', async () => {
    const { ticketId, contactId } = await agentTicket();
    const sub = await call(a.agent, 'POST', '/api/push/subscriptions', {
      endpoint: 'http://127.0.0.1:9/push/mention',
      keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
    });
    expect(sub.statusCode, sub.body).toBe(201);
    const mentionJobs = async () => {
      await live.t.app.push.settled();
      const rows = await live.t.app.ctx.db.execute<{
        data: { userId: number; payload: { title: string; body: string; url: string } };
      }>(sql`select data from pgboss.job where name = ${PUSH_SEND_JOB} order by created_on, id`);
      return rows.rows.map((r) => r.data).filter((d) => d.payload.title.includes('mencionado'));
    };
    const note = (text: string) =>
      call(a.admin, 'POST', '/api/ticket-notes', {
        note: text,
        ticketId,
        contactId,
        mentionedUserIds: [a.agent.id],
      });
    expect((await note('segredo da nota')).statusCode).toBe(201);
    const [job] = await mentionJobs();
    expect(job).toMatchObject({ userId: a.agent.id, payload: { body: 'Abra o Zapdesk para ver.' } });
    expect(job!.payload.url).toMatch(/^\/tickets\//);
    await call(a.agent, 'PUT', '/api/push/preferences', { mention: false });
    expect((await note('outra nota')).statusCode).toBe(201);
    expect(await mentionJobs()).toHaveLength(1);
    await live.t.app.ctx.db.delete(pushPreferences).where(eq(pushPreferences.userId, a.agent.id));
    await live.t.app.ctx.db.execute(sql`delete from pgboss.job where name = ${PUSH_SEND_JOB}`);
  });

  it('loads the ticket notes with the messages page', async () => {
    const { ticketId, contactId } = await agentTicket();
    expect(
      (await call(a.agent, 'POST', '/api/ticket-notes', { note: 'nota no meio', ticketId, contactId }))
        .statusCode,
    ).toBe(201);
    const page = await call(a.agent, 'GET', `/api/messages/${ticketId}`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().notes).toEqual([
      expect.objectContaining({ note: 'nota no meio', user: expect.objectContaining({ id: a.agent.id }) }),
    ]);
  });
});

describe('presence', () => {
  it("shows the customer's typing to those who can see the ticket only", async () => {
    const { ticketId, from } = await agentTicket();
    const targets = [
      await sockets.online(a.agent),
      await sockets.online(outsider),
      await sockets.online(b.admin),
    ];
    const [agentGot, outsiderGot, bGot] = await collectUntilMarker<{ ticketId: number; presence: string }>(
      live.t.app,
      targets,
      `company-${a.companyId}-presence`,
      async () => {
        const res = await call(a.admin, 'POST', `/api/simulator/${whatsappId}/presence`, {
          number: from,
          presence: 'composing',
        });
        expect(res.statusCode, res.body).toBe(204);
      },
    );
    expect(agentGot).toEqual([
      expect.objectContaining({ action: 'update', ticketId, presence: 'composing' }),
    ]);
    expect(outsiderGot).toEqual([]);
    expect(bGot).toEqual([]);
  });

  it("subscribes to the customer's presence on opening and shows the agent's typing to the customer", async () => {
    const { ticketId, from } = await agentTicket();
    const shown = async () =>
      (await call(a.admin, 'GET', `/api/simulator/${whatsappId}/presence?number=${from}`)).json();
    expect(await shown()).toEqual({ shown: null, subscribed: false });
    await call(a.agent, 'GET', `/api/messages/${ticketId}`);
    expect((await shown()).subscribed).toBe(true);
    const typing = await call(a.agent, 'POST', `/api/messages/${ticketId}/presence`, {
      presence: 'composing',
    });
    expect(typing.statusCode).toBe(204);
    expect((await shown()).shown).toBe('composing');
    expect(
      (await call(outsider, 'POST', `/api/messages/${ticketId}/presence`, { presence: 'paused' })).statusCode,
    ).toBe(403);
    const bad = await call(a.agent, 'POST', `/api/messages/${ticketId}/presence`, { presence: 'dancing' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
  });
});

// The throttle itself: repeats within the window are dropped, a change goes out at once.
describe('presence throttle', () => {
  it('drops a repeat within the window and sends a change', async () => {
    const { PresenceThrottle, PRESENCE_REPEAT_MS } = await import('../messages/routes.js');
    const throttle = new PresenceThrottle();
    expect(throttle.take(1, 'composing', 1000)).toBe(true);
    expect(throttle.take(1, 'composing', 1500)).toBe(false);
    expect(throttle.take(1, 'paused', 1600)).toBe(true);
    expect(throttle.take(1, 'paused', 1600 + PRESENCE_REPEAT_MS)).toBe(true);
    expect(throttle.take(2, 'composing', 1500)).toBe(true);
  });
});
