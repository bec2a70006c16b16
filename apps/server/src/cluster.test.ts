/**
 * Worker processes (cluster.ts): the setup checks, and the real entry script started with WORKERS=2
 * on a Postgres database and Redis (when TEST_DATABASE_URL and TEST_REDIS_URL are set, as in .ci/run):
 * both workers serve the port, a killed worker is replaced, SIGTERM stops them all.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterProblems, workerNodeId } from './cluster.js';
import { loadConfig } from './config.js';
import { childrenOf, freePort, startServer } from './test/server-process.js';
import { createServerDatabase } from './test/test-app.js';

describe('cluster setup', () => {
  it('one worker needs nothing more', () => {
    expect(clusterProblems({ WORKERS: 1, DATABASE_URL: undefined, REDIS_URL: undefined })).toEqual([]);
  });

  it('several workers need a Postgres server and Redis', () => {
    const problems = clusterProblems({ WORKERS: 2, DATABASE_URL: undefined, REDIS_URL: undefined });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain('DATABASE_URL');
    expect(problems[1]).toContain('REDIS_URL');
    expect(
      clusterProblems({ WORKERS: 2, DATABASE_URL: 'postgres://h/db', REDIS_URL: 'redis://h:6379' }),
    ).toEqual([]);
  });

  it('WORKERS is bounded and defaults to 1', () => {
    expect(loadConfig({}).WORKERS).toBe(1);
    expect(loadConfig({ WORKERS: '4' }).WORKERS).toBe(4);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/WORKERS/);
    expect(() => loadConfig({ WORKERS: 'many' })).toThrow(/WORKERS/);
  });

  it('each worker has its own node id, the same after a restart', () => {
    expect(workerNodeId('host-ab12', 0)).toBe('host-ab12-w0');
    expect(workerNodeId('host-ab12', 1)).toBe('host-ab12-w1');
    // Still a valid NODE_ID.
    expect(loadConfig({ NODE_ID: workerNodeId('host-ab12', 1) }).nodeId).toBe('host-ab12-w1');
  });

  it('the entry script refuses WORKERS=2 on the embedded database', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cluster-'));
    try {
      const child = startServer({ WORKERS: '2', DATA_DIR: dataDir, PORT: '0' });
      const code = await new Promise<number | null>((resolve) => child.process.on('exit', resolve));
      expect(code).toBe(1);
      expect(child.output()).toContain('WORKERS > 1 needs DATABASE_URL');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

const serverUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(serverUrl && redisUrl)('two workers on Postgres and Redis', () => {
  let database: Awaited<ReturnType<typeof createServerDatabase>>;
  let dataDir: string;
  let server: ReturnType<typeof startServer>;
  let port: number;

  beforeAll(async () => {
    database = await createServerDatabase(serverUrl!);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cluster-'));
    port = await freePort();
    server = startServer({
      WORKERS: '2',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl!,
      NODE_ID: 'cluster-test',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
      WEB_DIST: path.join(dataDir, 'no-web'),
    });
    await server.waitFor(/Zapdesk is running at/, 60_000);
  }, 90_000);

  afterAll(async () => {
    if (server?.process.exitCode === null) server.process.kill('SIGKILL');
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves the port from two worker processes, replaces a killed one, and stops on SIGTERM', async () => {
    const primary = server.process.pid!;
    const workers = await waitUntil(() => {
      const pids = childrenOf(primary);
      return pids.length === 2 ? pids : undefined;
    });
    for (let i = 0; i < 20; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    }

    // A worker dies: the primary starts another in its place, and the port keeps answering.
    process.kill(workers[0]!, 'SIGKILL');
    const replaced = await waitUntil(() => {
      const pids = childrenOf(primary);
      return pids.length === 2 && !pids.includes(workers[0]!) ? pids : undefined;
    });
    expect(replaced).toContain(workers[1]);
    await server.waitFor(new RegExp(`worker \\d+ \\(pid ${workers[0]}\\) exited`), 10_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status)),
    );
    expect(answers).toEqual(Array(10).fill(200));

    // SIGTERM: every worker shuts down gracefully, then the primary exits 0.
    const exited = new Promise<number | null>((resolve) => server.process.on('exit', resolve));
    server.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(replaced.filter(isAlive)).toEqual([]);
  }, 90_000);

  it("refuses to start a node whose SESSION_KEY is not the installation's", async () => {
    const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-cluster-'));
    try {
      const stranger = startServer({
        DATA_DIR: otherDir,
        PORT: '0',
        HOST: '127.0.0.1',
        DATABASE_URL: database.url,
        SESSION_KEY: crypto.randomBytes(32).toString('hex'),
        SEED_DEMO: 'false',
        WEB_DIST: path.join(otherDir, 'no-web'),
      });
      const code = await new Promise<number | null>((resolve) => stranger.process.on('exit', resolve));
      expect(code).toBe(1);
      expect(stranger.output()).toContain(
        'SESSION_KEY differs from the key this database was first started with',
      );
      expect(stranger.output()).not.toContain('Zapdesk is running');
    } finally {
      fs.rmSync(otherDir, { recursive: true, force: true });
    }
  }, 60_000);
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `probe` every 100 ms until it returns a value (at most 30 s). */
async function waitUntil<T>(probe: () => T | undefined): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('timed out waiting');
}
