import type { ErrorCode, OutboundContent, SentMessage } from '@zapdesk/shared';
import type { ChannelDriver, DriverContext, SendOptions } from '../driver.js';
import { ChannelSendError } from '../send-error.js';
import { GraphClient, GraphError } from './graph-client.js';

/** The settings a cloud driver runs with (decrypted). */
export interface CloudSettings {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
}

export interface CloudDriverOptions extends DriverContext {
  /** The connection's settings, or undefined when the admin has not saved them yet. */
  load: () => Promise<CloudSettings | undefined>;
  baseUrl: string;
  version: string;
}

/** A template component as the Graph API takes it (`body` parameters are the common case). */
export interface TemplateComponent {
  type: 'header' | 'body' | 'button';
  sub_type?: string;
  index?: string;
  parameters: ({ type: 'text'; text: string } | Record<string, unknown>)[];
}

/** A message template of the business account as GET /{waba-id}/message_templates lists it. */
export interface GraphTemplate {
  name: string;
  language: string;
  status: string;
  category: string;
  components?: { type: string; text?: string; format?: string }[];
}

/** Graph error codes meaning "too many messages now": sent again later with backoff. */
const RATE_LIMITED = new Set([4, 80007, 130429, 131048, 131056, 613]);
/** Graph error codes meaning the recipient cannot get the message. */
const INVALID_CONTACT = new Set([131026, 131021, 131030, 133010, 131045]);

/**
 * Maps a Graph API error to the catalogue: the access token refused (190, HTTP 401) waits for the
 * session; rate limits are retried; an undeliverable number is ERR_WAPP_INVALID_CONTACT; outside
 * the 24-hour window (131047) ERR_WAPP_OUTSIDE_WINDOW; a media Meta could not fetch
 * ERR_WAPP_DOWNLOAD_MEDIA; anything else ERR_SENDING_WAPP_MSG.
 */
export function sendErrorOf(error: unknown): ChannelSendError {
  if (error instanceof ChannelSendError) return error;
  if (!(error instanceof GraphError)) return new ChannelSendError('ERR_SENDING_WAPP_MSG', String(error));
  const detail = `${error.code}: ${error.message}${error.details ? ` (${error.details})` : ''}`;
  if (isTokenError(error))
    return new ChannelSendError('ERR_WAPP_NOT_INITIALIZED', detail, { waitForSession: true });
  if (RATE_LIMITED.has(error.code) || error.status === 429)
    return new ChannelSendError('ERR_SENDING_WAPP_MSG', detail, { retryAfterMs: 0 });
  if (error.status === 0 || error.status >= 500)
    return new ChannelSendError('ERR_SENDING_WAPP_MSG', detail, { retryAfterMs: 0 });
  const code: ErrorCode = INVALID_CONTACT.has(error.code)
    ? 'ERR_WAPP_INVALID_CONTACT'
    : error.code === 131047
      ? 'ERR_WAPP_OUTSIDE_WINDOW'
      : error.code === 131052 || error.code === 131053
        ? 'ERR_WAPP_DOWNLOAD_MEDIA'
        : 'ERR_SENDING_WAPP_MSG';
  return new ChannelSendError(code, detail);
}

/** The access token is invalid, expired or revoked (Graph code 190, or HTTP 401). */
export function isTokenError(error: unknown): boolean {
  return error instanceof GraphError && (error.code === 190 || error.status === 401);
}

/**
 * The WhatsApp Business Cloud API driver (provider 'cloud'). No QR and no socket: the
 * session is CONNECTED once GET /{phone-number-id} answers with the stored token, DISCONNECTED with
 * the reason otherwise or when a later call finds the token revoked (queued sends then wait for
 * the next start). Inbound messages and statuses arrive through the webhook (CloudChannel), not
 * through the driver, so any node may receive them.
 */
export class CloudDriver implements ChannelDriver {
  readonly provider = 'cloud';
  /** Outbound messages wait at ack 0 while the token is refused, instead of failing. */
  readonly keepsQueueWhileDown = true;
  private client: GraphClient | undefined;
  private settings: CloudSettings | undefined;
  private connected = false;

  constructor(private readonly options: CloudDriverOptions) {}

  async start(): Promise<void> {
    const { events } = this.options;
    events.state('OPENING');
    this.settings = await this.options.load();
    if (!this.settings) {
      events.state('DISCONNECTED', { reason: 'Cloud API settings missing' });
      return;
    }
    this.client = new GraphClient({
      baseUrl: this.options.baseUrl,
      version: this.options.version,
      accessToken: this.settings.accessToken,
    });
    try {
      const phone = await this.client.json<{ display_phone_number?: string; verified_name?: string }>(
        'GET',
        `/${this.settings.phoneNumberId}?fields=display_phone_number,verified_name`,
      );
      this.connected = true;
      events.state('CONNECTED', { number: phone.display_phone_number?.replace(/\D/g, '') || undefined });
    } catch (error) {
      events.state('DISCONNECTED', { reason: reasonOf(error) });
    }
  }

  async stop(): Promise<void> {
    this.connected = false;
    this.client = undefined;
  }

  /** The Graph client of a connected session. @throws ChannelSendError (waits) when not connected. */
  private ready(): { client: GraphClient; settings: CloudSettings } {
    if (!this.connected || !this.client || !this.settings)
      throw new ChannelSendError('ERR_WAPP_NOT_INITIALIZED', 'cloud session not connected', {
        waitForSession: true,
      });
    return { client: this.client, settings: this.settings };
  }

  /** Runs a Graph call; a refused token turns the session DISCONNECTED with the reason. */
  private async call<T>(fn: (client: GraphClient, settings: CloudSettings) => Promise<T>): Promise<T> {
    const { client, settings } = this.ready();
    try {
      return await fn(client, settings);
    } catch (error) {
      if (isTokenError(error) && this.connected) {
        this.connected = false;
        this.options.events.state('DISCONNECTED', { reason: reasonOf(error) });
      }
      throw error;
    }
  }

  /**
   * POST /{phone-number-id}/messages with `payload` (type and content) to `to`, quoting `context`.
   * @returns the message's wamid. @throws ChannelSendError (sendErrorOf).
   */
  async post(to: string, payload: Record<string, unknown>, context?: string): Promise<SentMessage> {
    try {
      const answer = await this.call((client, settings) =>
        client.json<{ messages?: { id: string }[] }>('POST', `/${settings.phoneNumberId}/messages`, {
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          ...(context ? { context: { message_id: context } } : {}),
          ...payload,
        }),
      );
      const id = answer.messages?.[0]?.id;
      if (!id) throw new ChannelSendError('ERR_SENDING_WAPP_MSG', 'Graph API answered no message id');
      return { providerId: id, ack: 1, timestamp: Date.now() };
    } catch (error) {
      throw sendErrorOf(error);
    }
  }

  /** Sends text, media (uploaded to the Graph API first), a location or a contact card. */
  async send(chatId: string, content: OutboundContent, options?: SendOptions): Promise<SentMessage> {
    const context = options?.quotedProviderId;
    switch (content.kind) {
      case 'text':
        return this.post(chatId, { type: 'text', text: { body: content.body, preview_url: false } }, context);
      case 'location':
        return this.post(
          chatId,
          {
            type: 'location',
            location: {
              latitude: content.latitude,
              longitude: content.longitude,
              ...(content.description ? { name: content.description } : {}),
            },
          },
          context,
        );
      case 'contact': {
        const digits = content.number.replace(/\D/g, '');
        return this.post(
          chatId,
          {
            type: 'contacts',
            contacts: [
              {
                name: { formatted_name: content.name, first_name: content.name },
                phones: [{ phone: `+${digits}`, wa_id: digits, type: 'CELL' }],
              },
            ],
          },
          context,
        );
      }
      case 'media': {
        const mediaId = await this.upload(content.data, content.mimetype, content.fileName);
        return this.post(chatId, mediaPayload(content.mediaType, { id: mediaId }, content), context);
      }
    }
  }

  /**
   * Uploads bytes to POST /{phone-number-id}/media. @returns the media id.
   * @throws ChannelSendError.
   */
  async upload(data: Buffer, mimetype: string, fileName: string): Promise<string> {
    try {
      const answer = await this.call((client, settings) => {
        const form = new FormData();
        form.append('messaging_product', 'whatsapp');
        form.append('type', mimetype);
        form.append('file', new Blob([new Uint8Array(data)], { type: mimetype }), fileName);
        return client.json<{ id: string }>('POST', `/${settings.phoneNumberId}/media`, form);
      });
      return answer.id;
    } catch (error) {
      throw sendErrorOf(error);
    }
  }

  /** Sends media Meta fetches from a public HTTPS `link` instead of an upload. */
  async sendMediaLink(
    chatId: string,
    mediaType: 'image' | 'audio' | 'video' | 'document',
    link: string,
    extra: { caption?: string; fileName?: string } = {},
    options?: SendOptions,
  ): Promise<SentMessage> {
    return this.post(chatId, mediaPayload(mediaType, { link }, extra), options?.quotedProviderId);
  }

  /** Reacts to a message with an emoji ('' removes the reaction). */
  async react(chatId: string, providerId: string, emoji: string): Promise<SentMessage> {
    return this.post(chatId, { type: 'reaction', reaction: { message_id: providerId, emoji } });
  }

  /**
   * Sends an approved message template (the only content allowed outside the 24-hour window).
   * `components` carry its parameters. @throws ChannelSendError.
   */
  async sendTemplate(
    chatId: string,
    template: { name: string; language: string; components?: TemplateComponent[] },
  ): Promise<SentMessage> {
    return this.post(chatId, {
      type: 'template',
      template: {
        name: template.name,
        language: { code: template.language },
        ...(template.components?.length ? { components: template.components } : {}),
      },
    });
  }

  /**
   * The business account's message templates (GET /{waba-id}/message_templates, every page).
   * @throws ChannelSendError.
   */
  async listTemplates(): Promise<GraphTemplate[]> {
    try {
      const templates: GraphTemplate[] = [];
      let after: string | undefined;
      for (let page = 0; page < 20; page++) {
        const answer = await this.call((client, settings) =>
          client.json<{ data: GraphTemplate[]; paging?: { cursors?: { after?: string }; next?: string } }>(
            'GET',
            `/${settings.wabaId}/message_templates?fields=name,language,status,category,components&limit=100${
              after ? `&after=${encodeURIComponent(after)}` : ''
            }`,
          ),
        );
        templates.push(...(answer.data ?? []));
        after = answer.paging?.next ? answer.paging.cursors?.after : undefined;
        if (!after) break;
      }
      return templates;
    } catch (error) {
      throw sendErrorOf(error);
    }
  }

  /** The Cloud API cannot delete a sent message for everyone. */
  async deleteMessage(): Promise<void> {
    throw new ChannelSendError('ERR_DELETE_WAPP_MSG', 'the Cloud API cannot delete messages');
  }

  /** Marks inbound messages read (blue ticks), one call per message. */
  async markRead(_chatId: string, providerIds: string[]): Promise<void> {
    for (const id of providerIds) {
      await this.call((client, settings) =>
        client.json('POST', `/${settings.phoneNumberId}/messages`, {
          messaging_product: 'whatsapp',
          status: 'read',
          message_id: id,
        }),
      );
    }
  }

  /** The Cloud API has no contact lookup: any plausible number is answered as existing. */
  async checkNumber(number: string): Promise<{ exists: boolean; number?: string }> {
    const digits = number.replace(/\D/g, '');
    return digits.length >= 8 && digits.length <= 15 ? { exists: true, number: digits } : { exists: false };
  }

  async profilePicture(): Promise<string | null> {
    return null;
  }
}

/** The type and media object of a media message (id or link; caption and file name where allowed). */
function mediaPayload(
  mediaType: 'image' | 'audio' | 'video' | 'document',
  source: { id: string } | { link: string },
  extra: { caption?: string; fileName?: string },
): Record<string, unknown> {
  const media: Record<string, unknown> = { ...source };
  if (mediaType !== 'audio' && extra.caption) media.caption = extra.caption;
  if (mediaType === 'document' && extra.fileName) media.filename = extra.fileName;
  return { type: mediaType, [mediaType]: media };
}

/** A short reason for the connection's status, from a Graph error. */
export function reasonOf(error: unknown): string {
  if (error instanceof GraphError) {
    const what = error.code === 190 || error.status === 401 ? 'Access token refused' : 'Graph API error';
    return `${what} (${error.code || error.status}): ${error.message}`.slice(0, 500);
  }
  return String((error as Error)?.message ?? error).slice(0, 500);
}
