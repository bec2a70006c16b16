/** The tickets API benchmark's server as several worker processes (`--workers N`). */
import { spawn } from 'node:child_process';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Config } from '../../apps/server/src/config.js';
import { childProcesses } from '../support/cpu.js';
import { type Load, loadText } from '../support/load.js';
import type { Options } from './options.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts `apps/server/src/main.ts` with WORKERS = options.workers on the bench's database, the same
 * secrets as the in-process app (so its tokens are valid) and Redis; resolves once every worker is up.
 */
export async function startCluster(config: Config, databaseUrl: string, options: Options) {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const free = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', 'src/main.ts'], {
    cwd: path.join(ROOT, 'apps/server'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      WORKERS: String(options.workers),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      DATA_DIR: config.dataDir,
      JWT_SECRET: config.JWT_SECRET,
      SESSION_KEY: config.SESSION_KEY,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      WEB_DIST: config.WEB_DIST,
      NODE_ID: `bench-api-${process.pid}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Zapdesk is running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker processes exited (${code}):\n${output}`)));
  });
  // Every worker answers once the port does: wait until all of them are listed.
  let workers: number[] = [];
  for (let i = 0; i < 100 && workers.length < options.workers; i++) {
    workers = childProcesses(child.pid!, 'src/main.ts');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    pid: child.pid!,
    workers,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The load line with the server's process(es) named. */
export function serverLoadText(load: Load, options: Options): string {
  const server =
    options.workers > 1 ? `(the server's primary and ${options.workers} workers)` : '(the server alone)';
  return loadText(load).replace('this Node process (server and load generator)', `Node ${server}`);
}
