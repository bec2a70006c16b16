/**
 * Per-ticket outbound order across workers and crashes: the real entry script with WORKERS=2 on a
 * Postgres database and Redis (when TEST_DATABASE_URL and TEST_REDIS_URL are set, as in .ci/run)
 * runs a flow (message, interval, message, interval, message) for many simulated customers, and is
 * SIGKILLed (primary and workers) twice mid-run and started again on the same database. What the
 * phones took is read from the simulator's journal (SIMULATOR_JOURNAL), which outlives the
 * processes: every customer gets each message once, and in the order the flow stored them.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/client.js';
import { seedPlans } from '../db/seed.js';
import { bearer, createCompany, createUser, type TestUser } from '../test/factories.js';
import { flowNode } from '../test/flow-fixture.js';
import { childrenOf, freePort, startServer } from '../test/server-process.js';
import { createServerDatabase } from '../test/test-app.js';

const serverUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const CUSTOMERS = 20;
const STEPS = ['Passo 1 de 3', 'Passo 2 de 3', 'Passo 3 de 3'];
const JWT_SECRET = crypto.randomBytes(32).toString('hex');

const edge = (source: string, target: string) => ({
  id: `e-${source}-${target}`,
  source,
  sourceHandle: 'a',
  target,
  targetHandle: null,
});
const phoneOf = (i: number) => `5521${String(700_000_000 + i)}`;

describe.runIf(serverUrl && redisUrl)('outbound order with two workers killed twice', () => {
  let url: string;
  let drop: () => Promise<void>;
  let dataDir: string;
  let journal: string;
  let port: number;
  let admin: TestUser;
  let whatsappId: number;
  let server: ReturnType<typeof startServer> | undefined;
  let db: pg.Client;

  beforeAll(async () => {
    ({ url, drop } = await createServerDatabase(serverUrl!));
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-order-'));
    journal = path.join(dataDir, 'phones.jsonl');
    port = await freePort();
    // The company, its simulator connection, the flow and its campaign, written through the API of
    // an app in this process; the servers started below find them in the database.
    const database = await openDatabase({ url });
    await database.migrate();
    await seedPlans(database.db);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      JWT_SECRET,
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web'),
    });
    const app = await buildApp({
      config,
      database,
      secrets: { jwtSecret: new TextEncoder().encode(JWT_SECRET), sessionKey: Buffer.alloc(32, 7) },
      logger: false,
    });
    await app.ready();
    try {
      admin = await createUser(app, await createCompany(app), { profile: 'admin' });
      const call = async (p: string, payload: object) => {
        const res = await app.inject({ method: 'POST', url: `/api${p}`, headers: bearer(admin), payload });
        if (res.statusCode >= 300) throw new Error(`${p}: ${res.statusCode} ${res.body}`);
        return res.json();
      };
      whatsappId = (await call('/whatsapp', { name: 'Ordem', provider: 'simulator' })).id;
      const flow = await call('/flowbuilder', { name: 'Três passos' });
      await call('/flowbuilder/flow', {
        idFlow: flow.id,
        nodes: [
          flowNode('1', 'start', { label: 'Inicio do fluxo' }),
          flowNode('one', 'message', { label: STEPS[0] }),
          flowNode('wait1', 'interval', { sec: 3 }),
          flowNode('two', 'message', { label: STEPS[1] }),
          flowNode('wait2', 'interval', { sec: 2 }),
          flowNode('three', 'message', { label: STEPS[2] }),
        ],
        connections: [
          edge('1', 'one'),
          edge('one', 'wait1'),
          edge('wait1', 'two'),
          edge('two', 'wait2'),
          edge('wait2', 'three'),
        ],
      });
      await call('/flowcampaign', { name: 'Oi', flowId: flow.id, whatsappId, phrase: 'oi' });
    } finally {
      await app.close();
      await database.close();
    }
    db = new pg.Client({ connectionString: url });
    await db.connect();
  }, 90_000);

  afterAll(async () => {
    if (server) killAll(server.process.pid!);
    await db?.end();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Starts the entry script with two workers and waits until it serves. */
  async function start(): Promise<ReturnType<typeof startServer>> {
    const started = startServer({
      WORKERS: '2',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      REDIS_URL: redisUrl!,
      NODE_ID: 'order-crash',
      JWT_SECRET,
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
      SIMULATOR_PAIR_MS: '0',
      SIMULATOR_JOURNAL: journal,
      SESSION_LEASE_MS: '4000',
      SENDING_CLAIM_MS: '10000',
    });
    // Three cold starts of the TypeScript entry (tsx) make most of this test's time.
    await started.waitFor(/Zapdesk is running at/, 120_000);
    return started;
  }

  /** SIGKILLs the primary and its workers at once: nothing shuts down gracefully. */
  function killAll(primary: number): void {
    for (const pid of [...childrenOf(primary), primary]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        /* gone already */
      }
    }
  }

  /** How many outbound messages of each step are stored so far. */
  async function stored(): Promise<number[]> {
    const { rows } = await db.query<{ body: string; n: string }>(
      `select body, count(*) as n from messages where from_me and whatsapp_id = $1 group by body`,
      [whatsappId],
    );
    return STEPS.map((step) => Number(rows.find((r) => r.body === step)?.n ?? 0));
  }

  async function until(probe: () => Promise<boolean>, ms: number, what: string): Promise<void> {
    const end = Date.now() + ms;
    while (!(await probe())) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${what}: stored ${await stored()}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('every customer gets each step once and in order', async () => {
    server = await start();
    // Each customer says the phrase; a request that reaches the worker without the session is
    // refused, so it is sent again on a new connection (the primary hands those out in turn).
    for (let i = 0; i < CUSTOMERS; i++) {
      const payload = JSON.stringify({ from: phoneOf(i), body: 'oi' });
      let status = 0;
      for (let attempt = 0; status !== 201; attempt++) {
        if (attempt === 200) throw new Error(`customer ${i}: ${status}`);
        status = await post(port, `/api/simulator/${whatsappId}/messages`, admin.token, payload);
        if (status !== 201) await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }

    // First kill in the middle of the second step's burst, the second in the third's.
    await until(async () => (await stored())[1]! >= CUSTOMERS / 2, 60_000, 'the second step');
    killAll(server.process.pid!);
    server = await start();
    await until(async () => (await stored())[2]! >= CUSTOMERS / 2, 60_000, 'the third step');
    killAll(server.process.pid!);
    server = await start();

    // Done: every step stored for every customer and accepted by the phone (a provider id).
    await until(
      async () => {
        const { rows } = await db.query<{ n: string }>(
          `select count(*) as n from messages where from_me and whatsapp_id = $1 and wid is not null`,
          [whatsappId],
        );
        return Number(rows[0]!.n) >= CUSTOMERS * STEPS.length;
      },
      90_000,
      'every step sent',
    );

    // The database: each ticket holds the three steps once, in the flow's order.
    const { rows } = await db.query<{ number: string; bodies: string[] }>(
      `select c.number, array_agg(m.body order by m.id) as bodies
       from messages m join contacts c on c.id = m.contact_id
       where m.from_me and m.whatsapp_id = $1 group by c.number`,
      [whatsappId],
    );
    expect(rows).toHaveLength(CUSTOMERS);
    for (const row of rows) expect(row.bodies, row.number).toEqual(STEPS);

    // The phones: what each took first, by message id (a phone takes an id once: a message resent
    // with its id after a crash is the same message), must be the three steps in order.
    const arrivals = new Map<string, { id: string; body: string }[]>();
    for (const line of fs.readFileSync(journal, 'utf8').split('\n').filter(Boolean)) {
      const item = JSON.parse(line) as { connectionId: number; to: string; id: string; body: string };
      if (item.connectionId !== whatsappId) continue;
      const list = arrivals.get(item.to) ?? [];
      if (!list.some((seen) => seen.id === item.id)) list.push({ id: item.id, body: item.body });
      arrivals.set(item.to, list);
    }
    const lost: string[] = [];
    const twice: string[] = [];
    const outOfOrder: string[] = [];
    for (let i = 0; i < CUSTOMERS; i++) {
      const got = (arrivals.get(phoneOf(i)) ?? []).map((a) => a.body);
      if (STEPS.some((step) => !got.includes(step))) lost.push(phoneOf(i));
      if (got.length !== new Set(got).size) twice.push(phoneOf(i));
      const firsts = [...new Set(got)];
      if (firsts.join('|') !== STEPS.join('|')) outOfOrder.push(`${phoneOf(i)}: ${firsts.join(' → ')}`);
    }
    expect({ lost, twice, outOfOrder }).toEqual({ lost: [], twice: [], outOfOrder: [] });
  }, 480_000);
});

/** POSTs `body` as JSON on a connection of its own (no keep-alive); resolves with the status. */
function post(port: number, url: string, token: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
