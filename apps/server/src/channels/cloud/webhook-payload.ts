import type { MediaType, NormalizedMessage } from '@zapdesk/shared';
import { z } from 'zod';

/**
 * The WhatsApp Business Cloud API webhook: the payload's shape as Meta documents it
 * (`object: whatsapp_business_account`, entries of changes whose `value` carries `metadata`,
 * `contacts`, `messages` and `statuses`), and its mapping to the pipeline's `NormalizedMessage`.
 *
 * Choices:
 * - text and captions become the body; image, audio (a voice note when `voice`), video, document
 *   and sticker carry their media id, downloaded lazily through the Graph API;
 * - location: body `|maps link|name, address` (no thumbnail) as other drivers write it;
 * - contacts: one vCard 3.0 per contact, joined with '\n', mediaType 'vcard';
 * - reaction: mediaType 'reaction', body the emoji ('' when removed);
 * - interactive button and list replies and template quick-reply buttons: the chosen title as text;
 * - anything else (unsupported, system, order...): a text body naming the type, so nothing is lost.
 */

const ZMediaRef = z.object({
  id: z.string().max(200),
  mime_type: z.string().max(200).optional(),
  caption: z.string().max(65_536).optional(),
  filename: z.string().max(1000).optional(),
  voice: z.boolean().optional(),
});

const ZInbound = z
  .object({
    from: z.string().max(40),
    id: z.string().min(1).max(200),
    timestamp: z.string().max(20),
    type: z.string().max(40),
    context: z.object({ from: z.string().max(40).optional(), id: z.string().max(200).optional() }).optional(),
    text: z.object({ body: z.string().max(65_536) }).optional(),
    image: ZMediaRef.optional(),
    audio: ZMediaRef.optional(),
    video: ZMediaRef.optional(),
    document: ZMediaRef.optional(),
    sticker: ZMediaRef.optional(),
    location: z
      .object({
        latitude: z.number(),
        longitude: z.number(),
        name: z.string().max(1000).optional(),
        address: z.string().max(1000).optional(),
      })
      .optional(),
    contacts: z
      .array(
        z.object({
          name: z
            .object({ formatted_name: z.string().max(1000).optional() })
            .partial()
            .optional(),
          phones: z
            .array(z.object({ phone: z.string().max(100).optional(), wa_id: z.string().max(40).optional() }))
            .max(50)
            .optional(),
        }),
      )
      .max(50)
      .optional(),
    reaction: z.object({ message_id: z.string().max(200), emoji: z.string().max(50).optional() }).optional(),
    interactive: z
      .object({
        type: z.string().max(40),
        button_reply: z.object({ id: z.string().max(256), title: z.string().max(256) }).optional(),
        list_reply: z
          .object({
            id: z.string().max(256),
            title: z.string().max(256),
            description: z.string().max(1000).optional(),
          })
          .optional(),
      })
      .optional(),
    button: z
      .object({ text: z.string().max(1000).optional(), payload: z.string().max(1000).optional() })
      .optional(),
  })
  .loose();

const ZStatus = z
  .object({
    id: z.string().min(1).max(200),
    status: z.string().max(40),
    timestamp: z.string().max(20).optional(),
    recipient_id: z.string().max(40).optional(),
    errors: z
      .array(
        z
          .object({
            code: z.number().optional(),
            title: z.string().max(1000).optional(),
            message: z.string().max(1000).optional(),
          })
          .loose(),
      )
      .max(20)
      .optional(),
  })
  .loose();

/** One change of the webhook: what happened on one business phone number. */
const ZValue = z
  .object({
    messaging_product: z.string().max(40).optional(),
    metadata: z.object({
      display_phone_number: z.string().max(40).optional(),
      phone_number_id: z.string().max(40),
    }),
    contacts: z
      .array(
        z.object({
          wa_id: z.string().max(40),
          profile: z
            .object({ name: z.string().max(1000) })
            .partial()
            .optional(),
        }),
      )
      .max(1000)
      .optional(),
    messages: z.array(ZInbound).max(1000).optional(),
    statuses: z.array(ZStatus).max(1000).optional(),
  })
  .loose();

/** The webhook body Meta posts. */
export const ZCloudWebhook = z.object({
  object: z.literal('whatsapp_business_account'),
  entry: z
    .array(
      z.object({
        id: z.string().max(40),
        changes: z.array(z.object({ field: z.string().max(100), value: z.unknown() })).max(100),
      }),
    )
    .max(100),
});
export type CloudWebhook = z.infer<typeof ZCloudWebhook>;
export type CloudInbound = z.infer<typeof ZInbound>;
export type CloudStatus = z.infer<typeof ZStatus>;
export type CloudChangeValue = z.infer<typeof ZValue>;

/**
 * The `messages` changes of a webhook body, validated. Changes of other fields (account updates,
 * template reviews) are skipped. @throws z.ZodError when the body or a messages change is malformed.
 */
export function messageChanges(body: unknown): CloudChangeValue[] {
  const parsed = ZCloudWebhook.parse(body);
  return parsed.entry.flatMap((entry) =>
    entry.changes.filter((c) => c.field === 'messages').map((c) => ZValue.parse(c.value)),
  );
}

/** Fetches a media's bytes and type by its Graph media id. */
export type MediaDownloader = (mediaId: string) => Promise<{ data: Buffer; mimetype: string }>;

const MEDIA_KINDS = ['image', 'audio', 'video', 'document', 'sticker'] as const;

/** Google Maps link for coordinates (decimal degrees), as the other drivers write locations. */
function mapsLink(latitude: number, longitude: number): string {
  return `https://maps.google.com/maps?q=${latitude}%2C${longitude}&z=17`;
}

/** A vCard 3.0 of a shared contact (name and phones; `waid` keeps the WhatsApp id). */
function vcardOf(contact: NonNullable<CloudInbound['contacts']>[number]): string {
  const name = (contact.name?.formatted_name ?? '').replace(/[\r\n;]/g, ' ').trim();
  const phones = (contact.phones ?? []).map((p) => {
    const waid = p.wa_id?.replace(/\D/g, '');
    return `TEL;type=CELL${waid ? `;waid=${waid}` : ''}:${(p.phone ?? waid ?? '').replace(/[\r\n]/g, '')}`;
  });
  return ['BEGIN:VCARD', 'VERSION:3.0', `N:;${name};;;`, `FN:${name}`, ...phones, 'END:VCARD'].join('\n');
}

/**
 * Maps one inbound Cloud API message to the pipeline's shape. `names` are the profile names of
 * the change's contacts by WhatsApp id; media download through `download` when the pipeline asks.
 */
export function normalizeInbound(
  message: CloudInbound,
  names: Map<string, string>,
  download: MediaDownloader,
): NormalizedMessage {
  const from = message.from.replace(/\D/g, '');
  const seconds = Number(message.timestamp);
  const base = {
    providerId: message.id,
    chatId: from,
    isGroup: false,
    fromMe: false,
    senderNumber: from,
    senderName: names.get(message.from),
    quotedProviderId: message.context?.id,
    timestamp: Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : Date.now(),
  };
  const kind = MEDIA_KINDS.find((k) => k === message.type);
  const ref = kind ? message[kind] : undefined;
  if (kind && ref) {
    const mimetype = ref.mime_type?.split(';')[0]?.trim() || 'application/octet-stream';
    const mediaType: MediaType =
      kind === 'document' ? (mimetype.startsWith('application/') ? 'application' : 'document') : kind;
    return {
      ...base,
      body: ref.caption ?? '',
      mediaType,
      media: {
        mimetype,
        fileName: ref.filename,
        download: async () => (await download(ref.id)).data,
      },
    };
  }
  switch (message.type) {
    case 'text':
      return { ...base, body: message.text?.body ?? '', mediaType: 'chat' };
    case 'location': {
      const l = message.location;
      if (!l) break;
      const label = [l.name, l.address].filter(Boolean).join(', ') || `${l.latitude}, ${l.longitude}`;
      return {
        ...base,
        body: `|${mapsLink(l.latitude, l.longitude)}|${label.replace(/\|/g, '/')}`,
        mediaType: 'locationMessage',
      };
    }
    case 'contacts':
      return { ...base, body: (message.contacts ?? []).map(vcardOf).join('\n'), mediaType: 'vcard' };
    case 'reaction':
      return {
        ...base,
        quotedProviderId: undefined,
        body: message.reaction?.emoji ?? '',
        mediaType: 'reaction',
        reactionToProviderId: message.reaction?.message_id,
      };
    case 'interactive': {
      const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
      if (reply) return { ...base, body: reply.title, mediaType: 'chat' };
      break;
    }
    case 'button':
      return { ...base, body: message.button?.text ?? message.button?.payload ?? '', mediaType: 'chat' };
  }
  return { ...base, body: `[${message.type || 'unsupported'} message]`, mediaType: 'chat' };
}

/** Delivery states of the Cloud API as acks (1 sent, 2 delivered, 3 read); undefined for others. */
export const STATUS_ACKS: Record<string, number> = { sent: 1, delivered: 2, read: 3 };
