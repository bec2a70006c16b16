import path from 'node:path';
import pino from 'pino';
import { buildApp } from './app.js';
import { createBaileysDriver } from './channels/baileys/driver.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { DEMO, ensureSuperUser, seedDemo } from './db/seed.js';
import { loadSecrets } from './lib/secrets.js';

/** Start: config -> secrets -> database -> migrations -> seed -> app -> listen. */
async function main(): Promise<void> {
  const config = loadConfig();
  const secrets = loadSecrets(config);
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: path.join(config.dataDir, 'pglite'),
  });
  await database.migrate();
  const embedded = !config.DATABASE_URL;
  const baileysLog = pino({ level: config.LOG_LEVEL }).child({ driver: 'baileys' });
  let seeded = false;
  if (config.production) {
    await ensureSuperUser(database.db, config);
  } else if (config.SEED_DEMO === 'true' || (config.SEED_DEMO === 'auto' && embedded)) {
    seeded = await seedDemo(database.db);
  }
  const app = await buildApp({
    config,
    database,
    secrets,
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
  const shutdown = async (signal: string) => {
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  await app.listen({ port: config.PORT, host: config.HOST });
  await app.sessions.startAll();
  app.sessions.startLeaseTimer();
  const url = `http://localhost:${config.PORT}`;
  const lines = [`Zapdesk is running at ${url} (database: ${database.kind})`];
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
