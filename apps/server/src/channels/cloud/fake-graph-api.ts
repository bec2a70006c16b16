import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local fake of Meta's Graph API for tests and the e2e journey (never used by the server itself):
 * it checks the bearer token, records every request, answers like Meta's documented responses
 * (phone number, messages, media upload and download, message templates) and can fail the next
 * sends with a Graph error. `sign` and `webhook` build signed webhook bodies like Meta's.
 */

/** One request the fake received. */
export interface RecordedRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  contentType: string | undefined;
  /** Parsed JSON body, or undefined for other bodies. */
  json?: Record<string, unknown>;
  /** Raw body bytes. */
  raw: Buffer;
}

export interface FakeTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components: { type: string; text?: string; format?: string }[];
}

export class FakeGraphApi {
  /** The token the fake accepts; anything else answers Meta's code 190. */
  token = 'EAAG-test-token-0001';
  readonly phoneNumberId = '106540352242922';
  readonly wabaId = '102290129340398';
  displayNumber = '+55 11 5555-0100';
  readonly requests: RecordedRequest[] = [];
  templates: FakeTemplate[] = [
    {
      name: 'order_update',
      language: 'pt_BR',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Olá {{1}}, seu pedido {{2}} foi enviado.' }],
    },
    {
      name: 'hello_world',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hello World' }],
    },
    {
      name: 'draft_promo',
      language: 'pt_BR',
      status: 'PENDING',
      category: 'MARKETING',
      components: [{ type: 'BODY', text: 'Promo' }],
    },
  ];
  /** Media the fake serves by id: bytes and type. */
  readonly media = new Map<string, { data: Buffer; mimetype: string }>();
  /** Errors the next POST /messages calls answer, in order: HTTP status and Graph error. */
  readonly failures: { status: number; code: number; message: string; details?: string }[] = [];
  private server: http.Server | undefined;
  private sequence = 0;
  origin = '';

  /** Starts listening on 127.0.0.1 (a free port). @returns the origin (`http://127.0.0.1:port`). */
  async start(): Promise<string> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The recorded POST /{phone-number-id}/messages bodies. */
  sent(): Record<string, unknown>[] {
    return this.requests
      .filter((r) => r.method === 'POST' && r.path.endsWith(`/${this.phoneNumberId}/messages`))
      .map((r) => r.json ?? {});
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://fake');
    const contentType = req.headers['content-type'];
    let json: Record<string, unknown> | undefined;
    if (contentType?.includes('application/json')) json = JSON.parse(raw.toString('utf8') || '{}');
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      authorization: req.headers.authorization,
      contentType,
      json,
      raw,
    };
    this.requests.push(record);
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return answer(401, {
        error: {
          message:
            'Error validating access token: The session has been invalidated because the user changed their password.',
          type: 'OAuthException',
          code: 190,
          error_subcode: 460,
          fbtrace_id: 'AbCdEfGh',
        },
      });
    }
    const parts = url.pathname.split('/').filter(Boolean);
    if (parts[0] === 'media-bytes' && parts[1]) {
      const item = this.media.get(parts[1]);
      if (!item) return answer(404, { error: { message: 'not found', code: 100 } });
      res.writeHead(200, { 'content-type': item.mimetype });
      return void res.end(item.data);
    }
    const [, id, edge] = parts;
    // Any other numeric id is a business phone number (tests may register several).
    const isPhone = !!id && /^\d+$/.test(id) && id !== this.wabaId && !this.media.has(id);
    if (req.method === 'GET' && isPhone && !edge) {
      return answer(200, {
        verified_name: 'Zapdesk Test',
        display_phone_number: id === this.phoneNumberId ? this.displayNumber : `+1 555 ${id.slice(-7)}`,
        id,
      });
    }
    if (req.method === 'GET' && id === this.wabaId && edge === 'message_templates') {
      return answer(200, { data: this.templates, paging: { cursors: { before: 'MAZDZD', after: 'MjQZD' } } });
    }
    if (req.method === 'POST' && isPhone && edge === 'media') {
      const mediaId = `${++this.sequence}${crypto.randomInt(1e9)}`;
      return answer(200, { id: mediaId });
    }
    if (req.method === 'POST' && isPhone && edge === 'messages') {
      if (json?.status === 'read') return answer(200, { success: true });
      const failure = this.failures.shift();
      if (failure) {
        return answer(failure.status, {
          error: {
            message: failure.message,
            type: 'OAuthException',
            code: failure.code,
            error_data: { messaging_product: 'whatsapp', details: failure.details ?? failure.message },
            fbtrace_id: 'AbCdEfGh',
          },
        });
      }
      const to = String(json?.to ?? '');
      return answer(200, {
        messaging_product: 'whatsapp',
        contacts: [{ input: to, wa_id: to }],
        messages: [{ id: `wamid.${Buffer.from(`out-${++this.sequence}-${Date.now()}`).toString('base64')}` }],
      });
    }
    if (req.method === 'GET' && id && this.media.has(id)) {
      const item = this.media.get(id)!;
      return answer(200, {
        messaging_product: 'whatsapp',
        url: `${this.origin}/media-bytes/${id}`,
        mime_type: item.mimetype,
        sha256: crypto.createHash('sha256').update(item.data).digest('hex'),
        file_size: item.data.length,
        id,
      });
    }
    return answer(400, {
      error: { message: 'Unsupported request', type: 'GraphMethodException', code: 100, fbtrace_id: 'x' },
    });
  }
}

/** `X-Hub-Signature-256` of a body as Meta computes it with the app secret. */
export function sign(body: string | Buffer, appSecret: string): string {
  return `sha256=${crypto.createHmac('sha256', appSecret).update(body).digest('hex')}`;
}

/**
 * A webhook body of one `messages` change for a phone number id (Meta's documented envelope):
 * `messages` from customers with their profile names, and/or `statuses`.
 */
export function webhook(
  phoneNumberId: string,
  value: {
    messages?: Record<string, unknown>[];
    statuses?: Record<string, unknown>[];
    contacts?: { wa_id: string; name: string }[];
  },
): Record<string, unknown> {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId },
              ...(value.contacts
                ? { contacts: value.contacts.map((c) => ({ profile: { name: c.name }, wa_id: c.wa_id })) }
                : {}),
              ...(value.messages ? { messages: value.messages } : {}),
              ...(value.statuses ? { statuses: value.statuses } : {}),
            },
          },
        ],
      },
    ],
  };
}
