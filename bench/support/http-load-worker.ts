/**
 * HTTP load generator run in a child process (forked by bench/api), so that the server process's
 * CPU time counts the server alone. Protocol over IPC: the parent sends
 * `{ id, url, token, requests, inFlight }`; the child answers `{ id, samples, seconds }` (latency of
 * each request in ms, from sending it to the end of its body) or `{ id, error }`.
 *
 * Requests go through `node:http` on `inFlight` kept-alive sockets and the body is read as it comes,
 * compressed or not (a browser decompresses on its own machine): `fetch` spent about as much CPU per
 * request as the server's Node process (its streams, abort signals and decompression), and on a
 * 2-core machine that wait for a core showed up as the server's latency.
 */
import http from 'node:http';
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

/** One GET on `agent`'s sockets; resolves with the status and the body's first bytes (for an error). */
function get(
  agent: http.Agent,
  url: URL,
  headers: http.OutgoingHttpHeaders,
): Promise<{ status: number; head: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers }, (res) => {
      let head = '';
      res.on('data', (chunk: Buffer) => {
        if (res.statusCode !== 200 && head.length < 300) head += chunk.toString('utf8');
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, head }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function run(job: LoadRequest): Promise<{ samples: number[]; seconds: number }> {
  const samples: number[] = [];
  const url = new URL(job.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: job.inFlight });
  const headers = {
    authorization: `Bearer ${job.token}`,
    'accept-encoding': job.encoding || 'identity',
  };
  let issued = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: job.inFlight }, async () => {
        while (issued < job.requests) {
          issued++;
          const t0 = performance.now();
          const { status, head } = await get(agent, url, headers);
          samples.push(performance.now() - t0);
          if (status !== 200) throw new Error(`HTTP ${status} ${head.slice(0, 300)}`);
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  return { samples, seconds: (performance.now() - started) / 1000 };
}

process.on('message', (job: LoadRequest) => {
  run(job).then(
    (result) => process.send?.({ id: job.id, ...result }),
    (error: unknown) => process.send?.({ id: job.id, error: String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
