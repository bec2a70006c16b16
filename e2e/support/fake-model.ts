import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model received: the chat messages it was given. */
export interface ModelCall {
  model: string;
  authorization: string | undefined;
  messages: { role: string; content: string }[];
}

/**
 * A local OpenAI-compatible server (POST /v1/chat/completions) for journeys: answers with
 * `reply(messages)` and records each call. Point OPENAI_BASE_URL at `${url}/v1`.
 */
export async function startFakeModel(
  reply: (messages: { role: string; content: string }[]) => string,
): Promise<{ url: string; calls: ModelCall[]; close: () => Promise<void> }> {
  const calls: ModelCall[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => {
      raw += chunk;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as { model: string; messages: ModelCall['messages'] };
      calls.push({ model: body.model, authorization: req.headers.authorization, messages: body.messages });
      const content = reply(body.messages);
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: `chatcmpl-${calls.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
