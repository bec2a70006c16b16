/**
 * Journey: the compose topology (deploy/compose.yaml) on loopback, with the same variables. One
 * Postgres database of the machine's server, Redis, an S3 server (s3rver), two nodes of the
 * production build each with its own DATA_DIR (its own disk), and Caddy in front with the committed
 * deploy/Caddyfile. A browser signs in through the proxy; a photo a customer sends through the node
 * holding the WhatsApp session is shown in the browser and downloads through the other node; a
 * reply made through the other node reaches the phone; a SIGTERM of the holder hands the session to
 * the other node in under 3 s and the conversation goes on; a SIGKILL of the new holder is taken
 * over within the lease.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { startTestS3, type TestS3 } from '../../apps/server/src/test/s3-server.js';
import { launchBrowser } from '../support/browser.js';
import { DEMO_ADMIN } from '../support/demo.js';
import { apiLogin, openPage, pageToken, waitForConnected } from '../support/journey.js';
import { signInAs } from '../support/pages.js';
import { freePort, type RunningServer, startServer } from '../support/server.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CUSTOMER = '5511966665555';
/** A lease short enough to watch a take-over after a SIGKILL (its floor in config.ts). */
const LEASE_MS = 4000;
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let s3: TestS3;
let database: string;
let admin: pg.Client;
let nodeA: RunningServer;
let nodeB: RunningServer;
let caddy: ChildProcess;
let caddyDir: string;
let proxyUrl: string;
let browser: Browser;
let page: Page;
let token = '';
let whatsappId = 0;
let ticketId = 0;

/** The environment both nodes share, as compose gives it (one database, Redis, the bucket, the keys). */
function clusterEnv(): Record<string, string> {
  return {
    DATABASE_URL: `postgres://postgres@127.0.0.1:5432/${database}`,
    REDIS_URL: process.env.E2E_REDIS_URL ?? 'redis://127.0.0.1:6379',
    ...s3.env,
    JWT_SECRET: 'topology-journey-secret-topology-journey-01',
    SESSION_KEY: crypto.createHash('sha256').update('topology journey').digest('hex'),
    SESSION_LEASE_MS: String(LEASE_MS),
    SIMULATOR_PAIR_MS: '100',
    TRUST_PROXY: 'loopback',
    SEED_DEMO: 'true',
  };
}

/** Starts a node of the cluster with its own DATA_DIR; `restart` starts that node again, on its port and disk. */
const startNode = (nodeId: string, restart?: RunningServer) =>
  startServer(
    { ...clusterEnv(), NODE_ID: nodeId, ...(restart ? { PORT: new URL(restart.url).port } : {}) },
    restart?.dataDir,
  );

/** The node holding the WhatsApp session's lease now ('' when none does). */
async function leaseOwner(): Promise<string> {
  const { rows } = await admin.query<{ owner: string }>(
    'select owner from whatsapp_leases where whatsapp_id = $1 and expires_at > now()',
    [whatsappId],
  );
  return rows[0]?.owner ?? '';
}

/** Waits until `owner` holds the session; resolves with the time it took (ms). */
async function waitForOwner(owner: string, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if ((await leaseOwner()) === owner) return Date.now() - start;
    if (Date.now() - start > timeoutMs)
      throw new Error(`${owner} did not take the session in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A JSON call to `base`'s API with the admin's token. */
async function call<T>(base: string, urlPath: string, init: { method?: string; body?: unknown } = {}) {
  const res = await fetch(`${base}/api${urlPath}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : undefined) as T };
}

/** The bodies the customer's simulated phone received from connection `whatsappId`, through `base`. */
async function phoneBodies(base: string): Promise<string[]> {
  const res = await call<{ body: string }[]>(base, `/simulator/${whatsappId}/outbox?number=${CUSTOMER}`);
  return res.status === 200 ? res.json.map((m) => m.body) : [];
}

/**
 * Replies `body` on the ticket through `via` and waits (up to 10 s) until the customer's phone has
 * it, read through `holder` (the node running the session).
 */
async function replyReachesPhone(via: string, body: string, holder: string): Promise<void> {
  const reply = await call(via, `/messages/${ticketId}`, { method: 'POST', body: { body } });
  assert.equal(reply.status, 201);
  let bodies: string[] = [];
  for (let i = 0; i < 100 && !bodies.includes(body); i++) {
    bodies = await phoneBodies(holder);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(bodies.includes(body), `phone got: ${bodies.join(' | ')}`);
}

/** Starts Caddy with the committed Caddyfile in front of both nodes; resolves with its URL. */
async function startCaddy(): Promise<string> {
  const port = await freePort();
  const adminPort = await freePort();
  caddyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-caddy-'));
  const upstreams = [nodeA, nodeB].map((n) => new URL(n.url).host).join(' ');
  caddy = spawn('caddy', ['run', '--config', path.join(ROOT, 'deploy/Caddyfile'), '--adapter', 'caddyfile'], {
    env: {
      ...process.env,
      SITE_ADDRESS: `:${port}`,
      ZAPDESK_UPSTREAMS: upstreams,
      CADDY_ADMIN: `127.0.0.1:${adminPort}`,
      HOME: caddyDir,
      XDG_DATA_HOME: caddyDir,
      XDG_CONFIG_HOME: caddyDir,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  caddy.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (caddy.exitCode !== null) throw new Error(`caddy exited:\n${log}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return url;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`caddy did not answer:\n${log}`);
}

before(async () => {
  database = `zapdesk_topology_${crypto.randomBytes(4).toString('hex')}`;
  admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:5432/${database}` });
  s3 = await startTestS3();
  // Node A first: it migrates, seeds the demo company and takes the simulator's session.
  nodeA = await startNode('topology-a');
  nodeB = await startNode('topology-b');
  await admin.connect();
  token = (await apiLogin(nodeA.url, DEMO_ADMIN)).token;
  const connections = async () => (await call<{ id: number; status: string }[]>(nodeA.url, '/whatsapp')).json;
  await waitForConnected(connections);
  whatsappId = (await connections())[0]!.id;
  // The conversation stays between the customer and the admin: no queue or accept greetings.
  for (const key of ['sendGreetingMessageOneQueues', 'sendGreetingAccepted']) {
    assert.equal(
      (await call(nodeA.url, `/settings/${key}`, { method: 'PUT', body: { value: 'disabled' } })).status,
      200,
    );
  }
  proxyUrl = await startCaddy();
  browser = await launchBrowser();
  page = await openPage(browser, { width: 1366, height: 860 });
});

after(async () => {
  await browser?.close();
  caddy?.kill('SIGTERM');
  await nodeA?.stop();
  await nodeB?.stop();
  await admin?.end().catch(() => undefined);
  const cleanup = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
  await cleanup.connect();
  await cleanup.query(`drop database if exists ${database} with (force)`);
  await cleanup.end();
  await s3?.close();
  if (caddyDir) fs.rmSync(caddyDir, { recursive: true, force: true });
});

describe('two nodes behind the proxy, media in the bucket', () => {
  it('signs in through the proxy, with the session held by the node started first', async () => {
    assert.equal(await leaseOwner(), 'topology-a');
    await signInAs(page, proxyUrl, DEMO_ADMIN);
    await page.getByTestId('side-menu').waitFor();
    // Signing in ends the admin's earlier session: the API calls below use the browser's.
    token = await pageToken(page);
    assert.ok(token);
  });

  it('shows a photo received by the holder and downloads it through the other node', async () => {
    const sent = await call<{ ticketId: number }>(nodeA.url, `/simulator/${whatsappId}/messages`, {
      method: 'POST',
      body: {
        from: CUSTOMER,
        name: 'Cliente Topologia',
        body: '',
        mediaUrl: `data:image/png;base64,${PIXEL.toString('base64')}`,
        mediaType: 'image',
      },
    });
    assert.equal(sent.status, 201);
    ticketId = sent.json.ticketId;
    const page1 = await call<{ messages: { id: number; mediaUrl: string | null }[] }>(
      nodeB.url,
      `/messages/${ticketId}`,
    );
    const photo = page1.json.messages.find((m) => m.mediaUrl);
    assert.ok(photo?.mediaUrl, 'the message carries its media');
    const name = photo.mediaUrl.split('/').pop()!;
    // Nothing on either node's disk: the file is in the bucket.
    for (const node of [nodeA, nodeB]) {
      const media = path.join(node.dataDir, 'media');
      const files = fs.existsSync(media) ? fs.readdirSync(media, { recursive: true }) : [];
      assert.ok(!files.some((f) => String(f).endsWith(name)), `${name} on ${node.url}'s disk`);
    }
    const download = await fetch(`${nodeB.url}/api/public/${name}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'image/png');
    assert.deepEqual(Buffer.from(await download.arrayBuffer()), PIXEL);
    const { uuid } = (await call<{ uuid: string }>(proxyUrl, `/tickets/${ticketId}`)).json;
    await page.goto(`${proxyUrl}/tickets/${uuid}`);
    const image = page.getByTestId(`message-image-${photo.id}`);
    await image.waitFor({ timeout: 20_000 });
    await page.waitForFunction(
      (id) =>
        (document.querySelector(`[data-testid="message-image-${id}"]`) as HTMLImageElement | null)
          ?.naturalWidth === 1,
      photo.id,
    );
  });

  it('sends a reply made through the other node to the phone', async () => {
    const accepted = await call(nodeB.url, `/tickets/${ticketId}`, {
      method: 'PUT',
      body: { status: 'open' },
    });
    assert.equal(accepted.status, 200);
    await replyReachesPhone(nodeB.url, 'Recebemos a foto!', nodeA.url);
  });

  it('hands the session to the other node in under 3 s on SIGTERM, and the conversation goes on', async () => {
    const stopped = nodeA.kill('SIGTERM');
    const tookMs = await waitForOwner('topology-b', 3000);
    assert.ok(tookMs < 3000, `take-over took ${tookMs} ms`);
    assert.equal(await stopped, 0);
    const more = await call(proxyUrl, `/simulator/${whatsappId}/messages`, {
      method: 'POST',
      body: { from: CUSTOMER, body: 'Ainda aí?' },
    });
    assert.equal(more.status, 201);
    // The browser's socket moved to the remaining node through the proxy: the message shows live.
    await page.getByText('Ainda aí?').first().waitFor({ timeout: 30_000 });
    await replyReachesPhone(proxyUrl, 'Sim, aqui!', nodeB.url);
  });

  it('takes the session over within the lease when its holder is SIGKILLed', async () => {
    nodeA = await startNode('topology-a', nodeA);
    assert.equal(await leaseOwner(), 'topology-b');
    await nodeB.kill('SIGKILL');
    const tookMs = await waitForOwner('topology-a', LEASE_MS + 5000);
    assert.ok(tookMs <= LEASE_MS + 5000, `take-over took ${tookMs} ms`);
    // The proxy sends to the restarted node once its health check passes (a node that failed stays
    // out for fail_duration): the conversation goes on through it.
    let status = 0;
    for (let i = 0; i < 60 && status !== 201; i++) {
      const res = await call(proxyUrl, `/simulator/${whatsappId}/messages`, {
        method: 'POST',
        body: { from: CUSTOMER, body: 'Depois da queda' },
      });
      status = res.status;
      if (status !== 201) await new Promise((r) => setTimeout(r, 500));
    }
    assert.equal(status, 201);
  });
});
