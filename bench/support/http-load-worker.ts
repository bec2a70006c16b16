/**
 * HTTP load generator run in a child process (forked by bench/api), so that the server process's
 * CPU time counts the server alone. Protocol over IPC: the parent sends
 * `{ id, url, token, requests, inFlight }`; the child answers `{ id, samples, seconds }` (latency of
 * each request in ms, from sending it to the end of its body) or `{ id, error }`.
 */
import { performance } from 'node:perf_hooks';

interface LoadRequest {
  id: number;
  url: string;
  token: string;
  /** The accept-encoding header ('identity': no compression). */
  encoding?: string;
  requests: number;
  inFlight: number;
}

async function run(job: LoadRequest): Promise<{ samples: number[]; seconds: number }> {
  const samples: number[] = [];
  let issued = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: job.inFlight }, async () => {
      while (issued < job.requests) {
        issued++;
        const t0 = performance.now();
        const res = await fetch(job.url, {
          headers: {
            authorization: `Bearer ${job.token}`,
            ...(job.encoding ? { 'accept-encoding': job.encoding } : {}),
          },
        });
        const body = await res.text();
        samples.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`HTTP ${res.status} ${body.slice(0, 300)}`);
      }
    }),
  );
  return { samples, seconds: (performance.now() - started) / 1000 };
}

process.on('message', (job: LoadRequest) => {
  run(job).then(
    (result) => process.send?.({ id: job.id, ...result }),
    (error: unknown) => process.send?.({ id: job.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
