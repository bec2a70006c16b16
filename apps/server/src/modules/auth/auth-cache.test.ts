import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.js';
import { seedPlans } from '../../db/seed.js';
import {
  bearer,
  createCompany,
  createQueue,
  createUser,
  customerNumber,
  login,
  type TestUser,
} from '../../test/factories.js';
import { buildTestNode, createServerDatabase } from '../../test/test-app.js';

/**
 * The guard's per-node cache (AuthCache). Two nodes (two apps) share one database: on
 * Postgres each has its own pool and LISTEN connection, as two server processes would; on PGlite
 * they share the embedded database. Every path that changes what the guard answers (role, queues,
 * plan flag, deletion, ended session, company due date) must apply on the next request, on the node
 * that wrote (through the API) and on the other one (once its NOTIFY arrived), and a write by plain
 * SQL from outside the app must too. Positive control: the cache is really used in between.
 */

interface Node {
  app: FastifyInstance;
  database: DatabaseHandle;
}

let nodes: [Node, Node];
let outside: (text: string, values?: unknown[]) => Promise<unknown>;
const cleanups: (() => Promise<void>)[] = [];

async function buildNode(database: DatabaseHandle): Promise<Node> {
  const { app, dispose } = await buildTestNode(database);
  cleanups.push(dispose);
  return { app, database };
}

beforeAll(async () => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const { url, drop } = await createServerDatabase(serverUrl);
    const a = await openDatabase({ url });
    const b = await openDatabase({ url });
    await a.migrate();
    await seedPlans(a.db);
    const plain = new pg.Client({ connectionString: url });
    await plain.connect();
    outside = (text, values) => plain.query(text, values);
    cleanups.push(async () => {
      await plain.end();
      await a.close();
      await b.close();
      await drop();
    });
    nodes = [await buildNode(a), await buildNode(b)];
  } else {
    const shared = await openDatabase({ dataDir: 'memory://' });
    await shared.migrate();
    await seedPlans(shared.db);
    outside = (text, values) => shared.executor.executeSql(text, values);
    cleanups.push(() => shared.close());
    nodes = [await buildNode(shared), await buildNode(shared)];
  }
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const hits = (node: Node) => node.app.ctx.authCache!.stats.hits;
const invalidations = (node: Node) => node.app.ctx.authCache!.stats.invalidations;

/** Waits until `node` received an invalidation after `since` (its NOTIFY), at most 5 s. */
async function notified(node: Node, since: number): Promise<void> {
  const deadline = Date.now() + 5000;
  while (invalidations(node) <= since) {
    if (Date.now() > deadline) throw new Error('no invalidation arrived');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** GET `url` as `user` on `node`; the status code. */
async function status(node: Node, user: TestUser, url: string): Promise<number> {
  const res = await node.app.inject({ method: 'GET', url, headers: bearer(user) });
  return res.statusCode;
}

/** Asks twice on each node and checks that the second answer came from the cache (positive control). */
async function primed(user: TestUser, url: string, expected: number): Promise<void> {
  for (const node of nodes) {
    expect(await status(node, user, url)).toBe(expected);
    const before = hits(node);
    expect(await status(node, user, url)).toBe(expected);
    expect(hits(node)).toBe(before + 1);
  }
}

async function waitBypassOver(): Promise<void> {
  // A node's own auth writes bypass its cache for 2 s; wait so that the next priming is cached.
  await new Promise((resolve) => setTimeout(resolve, 2100));
}

describe('auth guard cache', () => {
  it('serves repeated requests from the cache and answers the same', async () => {
    const [a] = nodes;
    const companyId = await createCompany(a.app);
    const admin = await createUser(a.app, companyId, { profile: 'admin' });
    await waitBypassOver();
    await primed(admin, '/api/dashboard', 200);
    const before = hits(a);
    const res = await a.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(admin) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: admin.id, profile: 'admin' });
    expect(hits(a)).toBe(before + 1);
    // A token of an unknown session is still refused with a warm cache for its user.
    const forged = await a.app.inject({
      method: 'GET',
      url: '/api/dashboard',
      headers: { authorization: `Bearer ${forgedSignature(admin.token)}` },
    });
    expect(forged.statusCode).toBe(403);
  });

  it('a role change applies on the next request, on both nodes', async () => {
    const [a, b] = nodes;
    const companyId = await createCompany(a.app);
    const boss = await createUser(a.app, companyId, { profile: 'admin' });
    const other = await createUser(a.app, companyId, { profile: 'admin' });
    await waitBypassOver();
    await primed(other, '/api/dashboard', 200);
    const seen = invalidations(b);
    const res = await a.app.inject({
      method: 'PUT',
      url: `/api/users/${other.id}`,
      headers: bearer(boss),
      payload: { profile: 'user' },
    });
    expect(res.statusCode).toBe(200);
    // A role changed through the API also ends the user's sessions (core section 6).
    expect(await status(a, other, '/api/dashboard')).toBe(401);
    await notified(b, seen);
    expect(await status(b, other, '/api/dashboard')).toBe(401);
  });

  it('a role changed by plain SQL (any writer) applies on the next request of every node', async () => {
    const companyId = await createCompany(nodes[0].app);
    const user = await createUser(nodes[0].app, companyId, { profile: 'admin' });
    await waitBypassOver();
    await primed(user, '/api/dashboard', 200);
    const seen = nodes.map(invalidations);
    await outside(`update users set profile = 'user' where id = $1`, [user.id]);
    for (const [i, node] of nodes.entries()) {
      await notified(node, seen[i]!);
      expect(await status(node, user, '/api/dashboard')).toBe(403);
    }
    // And back: promoted, the same token reaches admin routes again.
    const again = nodes.map(invalidations);
    await outside(`update users set profile = 'admin' where id = $1`, [user.id]);
    for (const [i, node] of nodes.entries()) {
      await notified(node, again[i]!);
      expect(await status(node, user, '/api/dashboard')).toBe(200);
    }
  });

  it("a queue change applies to the agent's next ticket list, on both nodes", async () => {
    const [a, b] = nodes;
    const companyId = await createCompany(a.app);
    const boss = await createUser(a.app, companyId, { profile: 'admin' });
    const q1 = await createQueue(a.app, companyId);
    const q2 = await createQueue(a.app, companyId);
    const agent = await createUser(a.app, companyId, { queueIds: [q1] });
    // One pending ticket in each queue.
    const [wa] = (await outside(
      `insert into whatsapps (company_id, name, status, provider, is_default)
       values ($1, 'sim', 'DISCONNECTED', 'simulator', true) returning id`,
      [companyId],
    ).then((r) => (r as { rows: { id: number }[] }).rows)) as { id: number }[];
    const ticketIn: Record<number, number> = {};
    for (const q of [q1, q2]) {
      const { rows } = (await outside(
        `with c as (insert into contacts (company_id, name, number) values ($1, 'C', $2) returning id)
         insert into tickets (company_id, contact_id, whatsapp_id, queue_id, status)
         select $1, c.id, $3, $4, 'pending' from c returning id`,
        [companyId, customerNumber(), wa!.id, q],
      )) as { rows: { id: number }[] };
      ticketIn[q] = rows[0]!.id;
    }
    const listed = async (node: Node) => {
      const res = await node.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(agent) });
      expect(res.statusCode).toBe(200);
      return (res.json() as { tickets: { id: number }[] }).tickets.map((t) => t.id).sort();
    };
    await waitBypassOver();
    await primed(agent, '/api/tickets', 200);
    expect(await listed(a)).toEqual([ticketIn[q1]]);
    expect(await listed(b)).toEqual([ticketIn[q1]]);
    const seen = invalidations(b);
    const res = await a.app.inject({
      method: 'PUT',
      url: `/api/users/${agent.id}`,
      headers: bearer(boss),
      payload: { queueIds: [q2] },
    });
    expect(res.statusCode).toBe(200);
    expect(await listed(a)).toEqual([ticketIn[q2]]);
    await notified(b, seen);
    expect(await listed(b)).toEqual([ticketIn[q2]]);
  });

  it('a plan flag turned off by plain SQL applies on the next request of every node', async () => {
    const companyId = await createCompany(nodes[0].app, { plan: { useKanban: true } });
    const user = await createUser(nodes[0].app, companyId);
    await waitBypassOver();
    await primed(user, '/api/tags/kanban', 200);
    const seen = nodes.map(invalidations);
    await outside(
      'update plans set use_kanban = false where id = (select plan_id from companies where id = $1)',
      [companyId],
    );
    for (const [i, node] of nodes.entries()) {
      await notified(node, seen[i]!);
      expect(await status(node, user, '/api/tags/kanban')).toBe(403);
    }
  });

  it('a deleted user is refused on the next request, on both nodes', async () => {
    const [a, b] = nodes;
    const companyId = await createCompany(a.app);
    const boss = await createUser(a.app, companyId, { profile: 'admin' });
    const gone = await createUser(a.app, companyId);
    await waitBypassOver();
    await primed(gone, '/api/auth/me', 200);
    const seen = invalidations(b);
    const res = await a.app.inject({ method: 'DELETE', url: `/api/users/${gone.id}`, headers: bearer(boss) });
    expect(res.statusCode).toBe(204);
    expect(await status(a, gone, '/api/auth/me')).toBe(401);
    await notified(b, seen);
    expect(await status(b, gone, '/api/auth/me')).toBe(401);
  });

  it('a revoked session and a passed due date are refused on the next request', async () => {
    const companyId = await createCompany(nodes[0].app);
    const user = await createUser(nodes[0].app, companyId);
    const second = await createUser(nodes[0].app, companyId);
    await waitBypassOver();
    await primed(user, '/api/auth/me', 200);
    await primed(second, '/api/auth/me', 200);
    let seen = nodes.map(invalidations);
    await outside('update refresh_tokens set revoked_at = now() where user_id = $1', [user.id]);
    for (const [i, node] of nodes.entries()) {
      await notified(node, seen[i]!);
      expect(await status(node, user, '/api/auth/me')).toBe(401);
      // The other user's session is untouched.
      expect(await status(node, second, '/api/auth/me')).toBe(200);
    }
    seen = nodes.map(invalidations);
    await outside(`update companies set due_date = now() - interval '1 day' where id = $1`, [companyId]);
    for (const [i, node] of nodes.entries()) {
      await notified(node, seen[i]!);
      expect(await status(node, second, '/api/auth/me')).toBe(401);
    }
  });

  it('logout through the API ends the session on the next request of the same node', async () => {
    const [a] = nodes;
    const companyId = await createCompany(a.app);
    await createUser(a.app, companyId, { email: `cache-${crypto.randomUUID()}@example.test` });
    const session = await login(a.app, (await createUser(a.app, companyId)).email);
    expect(session.statusCode).toBe(200);
    const token = (session.json() as { token: string }).token;
    const cookie = session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    await waitBypassOver();
    const me = () =>
      a.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
    expect((await me()).statusCode).toBe(200);
    const before = hits(a);
    expect((await me()).statusCode).toBe(200);
    expect(hits(a)).toBe(before + 1);
    const out = await a.app.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      headers: { authorization: `Bearer ${token}`, cookie },
    });
    expect(out.statusCode).toBeLessThan(300);
    expect((await me()).statusCode).toBe(401);
  });
});

/**
 * The token with one character of its signature changed, well before the last one (whose low bits
 * are padding that decodes the same): always a different signature.
 */
function forgedSignature(token: string): string {
  const at = token.length - 10;
  const swapped = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${swapped}${token.slice(at + 1)}`;
}
