/**
 * The real entry script (`src/main.ts`) in a child process, for the tests that start, kill and
 * restart it (cluster.test.ts, channels/outbound-order-crash.test.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');

/**
 * Starts `src/main.ts` (NODE_ENV development) with `env` added; collects its output. @returns the
 * child process, its output so far, and `waitFor(pattern, ms)`.
 */
export function startServer(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', 'src/main.ts'],
    {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        JWT_SECRET: 'cluster-test-secret-cluster-test-secret-01',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let text = '';
  const waiters = new Set<() => void>();
  const add = (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters) waiter();
  };
  child.stdout!.on('data', add);
  child.stderr!.on('data', add);
  return {
    process: child,
    output: () => text,
    /** Resolves when the output matches `pattern`; rejects after `ms` or when the process exits. */
    waitFor(pattern: RegExp, ms: number): Promise<void> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(text)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${pattern} in the server's output:\n${text}`));
        }, ms);
        child.once('exit', (code) => {
          if (!pattern.test(text)) reject(new Error(`server exited (${code}):\n${text}`));
        });
        waiters.add(check);
        check();
      });
    },
  };
}

/** The pids of the server processes (src/main.ts) whose parent is `pid` (Linux /proc). */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      // tsx's esbuild service is a child too.
      if (ppid === pid && fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('src/main.ts')) {
        children.push(Number(entry));
      }
    } catch {
      /* gone meanwhile */
    }
  }
  return children.sort((a, b) => a - b);
}

/**
 * A TCP port nobody listens on right now: one the system picks, or one of the range in TEST_PORTS
 * ('46000-46999') when set (machines where each user keeps to a range). @throws when none is free.
 */
export async function freePort(): Promise<number> {
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEST_PORTS ?? '');
  if (!range) return listenOn(0);
  const [low, high] = [Number(range[1]), Number(range[2])];
  const offset = Math.floor(Math.random() * (high - low + 1));
  for (let i = 0; i <= high - low; i++) {
    const port = low + ((offset + i) % (high - low + 1));
    const free = await listenOn(port).catch(() => undefined);
    if (free) return free;
  }
  throw new Error(`no free port in ${process.env.TEST_PORTS}`);
}

/** Listens on `port` (0: any) and closes again. @returns the port. @throws when it is taken. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(port, '127.0.0.1', () => {
      const { port: bound } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(bound));
    });
  });
}
