import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { importSPKI, jwtVerify } from 'jose';

/** One request a fake service received. */
export interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  raw: string;
}

/**
 * A local stand-in for the outside bot services, speaking their real HTTP APIs: OpenAI chat
 * completions (`/v1/chat/completions`), Typebot's chat API (`/api/v1/typebots/:slug/startChat`,
 * `/api/v1/sessions/:id/continueChat`), an n8n/webhook endpoint (`/hook`), Google's OAuth token
 * endpoint (`/token`, verifying the service account's JWT) and Dialogflow's detectIntent
 * (`/v2/projects/:p/agent/sessions/:s:detectIntent`). Tests and the e2e journey set the behaviour
 * and read `received`.
 */
export class FakeBotServices {
  readonly app: FastifyInstance;
  received: Received[] = [];
  url = '';
  /** OpenAI: answers this text; '#401' refuses the key; '#slow' never answers in time. */
  modelReply: (messages: { role: string; content: string }[]) => string = () => 'Olá! Como posso ajudar?';
  /** Typebot: known sessions (a forgotten one answers 404). */
  typebotSessions = new Set<string>();
  /** n8n/webhook: the answer (an object is sent as JSON, a string as is). */
  hookAnswer: (body: Record<string, unknown>) => unknown = (body) => ({
    replies: [`Recebido: ${(body.message as { body?: string } | null)?.body ?? ''}`],
  });
  /** Dialogflow: the service account's public key (SPKI PEM) the token endpoint checks. */
  publicKeyPem = '';
  dialogflowAnswer: (text: string) => unknown = (text) => ({
    queryResult: { fulfillmentMessages: [{ text: { text: [`Dialogflow: ${text}`] } }], intent: {} },
  });
  #sessionSeq = 0;

  constructor() {
    this.app = Fastify({ logger: false });
    this.app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    this.app.addHook('preHandler', async (request) => {
      this.received.push({
        path: request.url,
        headers: request.headers,
        body: request.body,
        raw: typeof request.body === 'string' ? request.body : JSON.stringify(request.body ?? null),
      });
    });
    this.app.post('/v1/chat/completions', async (request, reply) => {
      const body = request.body as { messages: { role: string; content: string }[]; model: string };
      const text = this.modelReply(body.messages);
      if (text === '#401') {
        return reply
          .status(401)
          .send({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
      }
      if (text === '#slow') await new Promise((resolve) => setTimeout(resolve, 5000));
      return {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      };
    });
    this.app.post('/api/v1/typebots/:slug/startChat', async () => {
      const sessionId = `tb-${++this.#sessionSeq}`;
      this.typebotSessions.add(sessionId);
      return {
        sessionId,
        messages: [
          {
            id: 'b1',
            type: 'text',
            content: {
              type: 'richText',
              richText: [{ type: 'p', children: [{ text: 'Olá! Eu sou o bot.' }] }],
            },
          },
          { id: 'b2', type: 'text', content: { type: 'markdown', markdown: 'Escolha um assunto:' } },
        ],
        input: {
          id: 'i1',
          type: 'choice input',
          items: [
            { id: 'c1', content: 'Vendas' },
            { id: 'c2', content: 'Suporte' },
          ],
        },
      };
    });
    this.app.post('/api/v1/sessions/:id/continueChat', async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!this.typebotSessions.has(id)) return reply.status(404).send({ message: 'Session not found.' });
      const text = (request.body as { message: { text: string } }).message.text;
      if (text === 'Vendas') {
        return {
          messages: [
            {
              id: 'b3',
              type: 'text',
              content: { type: 'markdown', markdown: 'Ótimo, vendas! Qual produto?' },
            },
          ],
          input: { id: 'i2', type: 'text input' },
        };
      }
      this.typebotSessions.delete(id);
      return { messages: [{ id: 'b4', type: 'text', content: { type: 'markdown', markdown: 'Obrigado!' } }] };
    });
    this.app.post('/hook', async (request, reply) => {
      const answer = this.hookAnswer(request.body as Record<string, unknown>);
      if (typeof answer === 'string') return reply.type('text/plain').send(answer);
      return answer;
    });
    this.app.post('/token', async (request, reply) => {
      const form = request.body as { grant_type?: string; assertion?: string };
      try {
        const key = await importSPKI(this.publicKeyPem, 'RS256');
        await jwtVerify(form.assertion ?? '', key, { audience: `${this.url}/token` });
      } catch {
        return reply.status(400).send({ error: 'invalid_grant' });
      }
      if (form.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return reply.status(400).send({});
      return { access_token: 'ya29.fake-token', expires_in: 3600, token_type: 'Bearer' };
    });
    this.app.post('/v2/*', async (request, reply) => {
      if (request.headers.authorization !== 'Bearer ya29.fake-token') return reply.status(401).send({});
      const body = request.body as { queryInput: { text: { text: string } } };
      return this.dialogflowAnswer(body.queryInput.text.text);
    });
  }

  /** Listens on 127.0.0.1 on a free port; `url` is then its base URL. */
  async start(): Promise<this> {
    this.url = await this.app.listen({ host: '127.0.0.1', port: 0 });
    return this;
  }

  /** The requests received on paths starting with `prefix`. */
  requests(prefix: string): Received[] {
    return this.received.filter((r) => r.path.startsWith(prefix));
  }

  /** A Dialogflow service-account key whose token_uri is this fake (the private key signs the JWT). */
  serviceAccount(): string {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    this.publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    return JSON.stringify({
      type: 'service_account',
      project_id: 'loja-agent',
      client_email: `bot-${crypto.randomUUID().slice(0, 8)}@loja-agent.iam.gserviceaccount.com`,
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      token_uri: `${this.url}/token`,
    });
  }

  async close(): Promise<void> {
    await this.app.close();
  }
}
