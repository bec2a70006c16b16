import { z } from 'zod';
import { timestampFields } from './answers.js';
import { ZId } from './common.js';
import { ZQueueRef } from './queues.js';

/** Connection states a driver reports (document 2 section 4). */
export const CONNECTION_STATES = [
  'CONNECTED',
  'DISCONNECTED',
  'OPENING',
  'qrcode',
  'PAIRING',
  'TIMEOUT',
] as const;
export const ZConnectionState = z.enum(CONNECTION_STATES);
export type ConnectionState = z.infer<typeof ZConnectionState>;

/**
 * Drivers: `beta` is Baileys (WhatsApp Web multi-device), `simulator` the in-process phone network,
 * `cloud` Meta's official WhatsApp Business Cloud API.
 */
export const PROVIDERS = ['beta', 'simulator', 'cloud'] as const;
export const ZProvider = z.enum(PROVIDERS);
export type Provider = z.infer<typeof ZProvider>;

/** Connection (document 2 section 3). */
export const ZWhatsapp = z.object({
  id: z.number(),
  name: z.string(),
  status: ZConnectionState,
  /** Why the session last stopped (a refused access token...), or null; cleared once connected. */
  statusReason: z.string().nullable().optional(),
  qrcode: z.string(),
  retries: z.number(),
  isDefault: z.boolean(),
  provider: ZProvider,
  number: z.string().nullable(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  /** The external API's bearer token (server-made, unique); null for callers who are not admins. */
  token: z.string().nullable(),
  expiresInactiveMessage: z.string(),
  expiresTicket: z.number(),
  timeUseBotQueues: z.number(),
  maxUseBotQueues: z.number(),
  timeToTransfer: z.number(),
  transferQueueId: z.number().nullable(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  /** The welcome flow started for a new ticket when no phrase matched, or null. */
  flowIdWelcome: z.number().nullable().optional(),
  queues: z.array(ZQueueRef),
  companyId: z.number(),
  ...timestampFields,
});
export type Whatsapp = z.infer<typeof ZWhatsapp>;

const message = z.string().max(10_000).optional().default('');
const minutes = z.number().int().min(0).max(525_600).optional().default(0);

/** POST /whatsapp and PUT /whatsapp/:id body (document 2 sections 3 and 7). */
export const ZWhatsappBody = z.object({
  name: z.string().trim().min(2, 'tooShort').max(50, 'tooLong'),
  isDefault: z.boolean().optional().default(false),
  provider: ZProvider.optional().default('beta'),
  greetingMessage: message,
  complationMessage: message,
  outOfHoursMessage: message,
  ratingMessage: message,
  /**
   * Accepted for older clients that send the field back, and ignored: the token is made by the
   * server and replaced with POST /whatsapp/:id/token.
   */
  token: z.string().max(200).nullable().optional(),
  expiresInactiveMessage: message,
  expiresTicket: minutes,
  timeUseBotQueues: minutes,
  maxUseBotQueues: z.number().int().min(0).max(100).optional().default(3),
  timeToTransfer: minutes,
  transferQueueId: ZId.nullable().optional(),
  promptId: ZId.nullable().optional(),
  integrationId: ZId.nullable().optional(),
  flowIdWelcome: ZId.nullable().optional(),
  queueIds: z.array(ZId).max(500).optional().default([]),
});
export type WhatsappBody = z.input<typeof ZWhatsappBody>;

/** Simulator: a message injected as if a customer sent it. */
export const ZSimulatorInboundBody = z.object({
  from: z
    .string()
    .trim()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(8, 'tooShort').max(20, 'tooLong')),
  name: z.string().trim().max(100).optional(),
  body: z.string().max(65_536).optional().default(''),
  mediaType: z
    .enum(['chat', 'image', 'audio', 'video', 'document', 'locationMessage', 'vcard', 'sticker'])
    .optional(),
  /** data: URL or http(s) URL of the media (data: URLs only are fetched in tests and the demo). */
  mediaUrl: z.string().max(15_000_000).optional(),
  quotedId: z.string().max(200).optional(),
});
export type SimulatorInboundBody = z.input<typeof ZSimulatorInboundBody>;

/** One message the business sent to a simulated phone. */
export const ZSimulatorOutboxItem = z.object({
  id: z.string(),
  to: z.string(),
  kind: z.string(),
  body: z.string(),
  ack: z.number(),
  quotedId: z.string().nullable(),
  timestamp: z.number(),
});
