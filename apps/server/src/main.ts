import cluster from 'node:cluster';
import path from 'node:path';
import pino from 'pino';
import { gracefulStop } from './app/graceful-stop.js';
import { buildApp } from './app.js';
import { createBaileysDriver } from './channels/baileys/driver.js';
import { clusterProblems, superviseWorkers, workerIndex } from './cluster.js';
import { type Config, loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { verifySessionKey } from './db/instance-checks.js';
import { DEMO, ensureSuperUser, seedDemo } from './db/seed.js';
import { loadSecrets, type Secrets } from './lib/secrets.js';
import { createStorage } from './lib/storage/create-storage.js';

/**
 * Migrations, the session key check (a node with another SESSION_KEY than the installation's stops
 * here) and the first data (super user or demo company); true when the demo was seeded now.
 */
async function prepareDatabase(
  config: Config,
  database: Awaited<ReturnType<typeof openDatabase>>,
  secrets: Secrets,
) {
  await database.migrate();
  await verifySessionKey(database.db, secrets.sessionKey);
  const embedded = !config.DATABASE_URL;
  if (config.production) {
    await ensureSuperUser(database.db, config);
    return false;
  }
  if (config.SEED_DEMO === 'true' || (config.SEED_DEMO === 'auto' && embedded)) {
    return seedDemo(database.db);
  }
  return false;
}

/**
 * The primary of WORKERS > 1 (cluster.ts): checks the setup, prepares the database and the secrets
 * once, then runs the workers until SIGINT or SIGTERM.
 */
async function runPrimary(config: Config): Promise<void> {
  const problems = clusterProblems(config);
  if (problems.length) throw new Error(`Invalid configuration:\n${problems.join('\n')}`);
  await createStorage(config).check();
  const secrets = loadSecrets(config);
  const database = await openDatabase({ url: config.DATABASE_URL });
  try {
    await prepareDatabase(config, database, secrets);
  } finally {
    await database.close();
  }
  const log = (line: string) => console.log(`[zapdesk primary] ${line}`);
  await superviseWorkers({ workers: config.WORKERS, nodeId: config.nodeId, log });
  process.exit(0);
}

/** Start: config -> secrets -> storage check -> database -> migrations -> seed -> app -> listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  if (config.WORKERS > 1 && cluster.isPrimary) return runPrimary(config);
  // A worker's database was prepared by the primary.
  const worker = workerIndex();
  const secrets = loadSecrets(config);
  // A missing bucket or refused keys stop the start here, naming the variable to fix.
  const storage = createStorage(config);
  await storage.check();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.dataDir, 'pglite'),
  });
  const seeded = worker === null ? await prepareDatabase(config, database, secrets) : false;
  const embedded = !config.DATABASE_URL;
  const baileysLog = pino({ level: config.LOG_LEVEL }).child({ driver: 'baileys' });
  const app = await buildApp({
    config,
    database,
    secrets,
    storage,
    // The real WhatsApp driver (provider 'beta'); tests use the simulator or fakes instead.
    drivers: {
      beta: (context) =>
        createBaileysDriver({ ...context, db: database.db, sessionKey: secrets.sessionKey, log: baileysLog }),
    },
    logger: {
      level: config.LOG_LEVEL,
      ...(config.production
        ? {}
        : { transport: { target: 'pino-pretty', options: { translateTime: 'HH:MM:ss' } } }),
    },
  });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    const timeoutMs = config.SHUTDOWN_TIMEOUT_MS;
    app.log.info({ signal, timeoutMs }, 'stopping: not ready, sessions handed over, finishing work');
    const result = await gracefulStop(app, timeoutMs, config.SHUTDOWN_DRAIN_MS).catch((error: unknown) => {
      app.log.error({ err: error }, 'graceful stop failed');
      return 'failed' as const;
    });
    if (result === 'closed') await database.close().catch(() => undefined);
    else app.log.warn({ result, timeoutMs }, 'stopped before everything finished');
    app.log.info({ result }, 'stopped');
    process.exit(result === 'closed' ? 0 : 1);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  await app.sessions.startAll();
  app.sessions.startLeaseTimer();
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const url = `http://localhost:${port}`;
  if (worker !== null && worker > 0) return;
  const lines = [`Zapdesk is running at ${url} (database: ${database.kind})`];
  if (worker !== null) lines.push(`${config.WORKERS} worker processes`);
  if (!config.production && (seeded || embedded)) {
    lines.push(`Demo admin: ${DEMO.admin.email} / ${DEMO.admin.password}`);
    lines.push(`Demo agent: ${DEMO.agent.email} / ${DEMO.agent.password}`);
  }
  console.log(`\n${lines.join('\n')}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
