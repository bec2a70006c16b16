/**
 * The parent side of the HTTP load generator (bench/support/http-load-worker.ts): a child process
 * that sends a scenario's requests, so that the server process's CPU time counts the server alone.
 */
import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** One job: `requests` GETs of `url` with `inFlight` at a time, as `token`'s bearer. */
export interface LoadJob {
  url: string;
  token: string;
  /** The accept-encoding header ('identity': no compression). */
  encoding: string;
  requests: number;
  inFlight: number;
}

/** The load generator child process, one job at a time. */
export class LoadGenerator {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (v: { samples: number[]; seconds: number }) => void; reject: (e: Error) => void }
  >();

  /** Forks the worker; its output goes to this process's. */
  constructor() {
    const worker = path.join(path.dirname(fileURLToPath(import.meta.url)), 'http-load-worker.ts');
    this.child = fork(worker, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: { id: number; samples?: number[]; seconds?: number; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!w) return;
      if (m.error) w.reject(new Error(m.error));
      else w.resolve({ samples: m.samples ?? [], seconds: m.seconds ?? Number.NaN });
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`load generator exited (${code})`));
      this.waiting.clear();
    });
  }

  /** Runs `job`; resolves with each request's latency (ms) and the job's wall time (s). */
  send(job: LoadJob): Promise<{ samples: number[]; seconds: number }> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, ...job });
    });
  }

  /** Disconnects the child, which then exits. */
  close(): void {
    this.child.disconnect();
  }
}
