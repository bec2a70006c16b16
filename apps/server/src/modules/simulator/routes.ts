import { ZCoercedId, ZSimulatorInboundBody, ZSimulatorOutboxItem } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { SessionManager } from '../../channels/session-manager.js';
import { SimulatorDriver } from '../../channels/simulator/simulator-driver.js';
import type { SimulatorNetwork } from '../../channels/simulator/simulator-network.js';
import type { AppContext, ZodApp } from '../../context.js';
import { messages } from '../../db/schema/index.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute } from '../../lib/guards.js';
import { requireWhatsapp } from '../whatsapp/whatsapp-service.js';

const ZParams = z.object({ whatsappId: ZCoercedId });

/** Decodes a `data:` URL; other URLs are refused (the simulator never fetches from the network). */
function decodeDataUrl(url: string): { data: Buffer; mimetype: string } {
  const match = /^data:([\w.+-]+\/[\w.+-]+)?(;base64)?,(.*)$/s.exec(url);
  if (!match) throw new AppError('ERR_VALIDATION', { extra: { field: 'mediaUrl', message: 'invalid' } });
  const data = match[2] ? Buffer.from(match[3]!, 'base64') : Buffer.from(decodeURIComponent(match[3]!));
  return { data, mimetype: match[1] ?? 'application/octet-stream' };
}

/**
 * Simulator routes, for company admins and simulator
 * connections only: inject a customer message, read the outbox of a number, mark it read.
 */
export function simulatorRoutes(
  app: ZodApp,
  ctx: AppContext,
  sessions: SessionManager,
  network: SimulatorNetwork,
): void {
  const tags = ['simulator'];
  const driverOf = async (companyId: number, whatsappId: number): Promise<SimulatorDriver> => {
    const connection = await requireWhatsapp(ctx, companyId, whatsappId);
    if (connection.provider !== 'simulator') throw new AppError('ERR_WRONG_PROVIDER');
    const driver = sessions.get(whatsappId);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return driver;
  };
  app.post(
    '/simulator/:whatsappId/messages',
    {
      config: adminRoute,
      bodyLimit: 16 * 1024 * 1024,
      schema: {
        tags,
        params: ZParams,
        body: ZSimulatorInboundBody,
        response: { 201: z.object({ id: z.number(), ticketId: z.number() }) },
      },
    },
    async (request, reply) => {
      const driver = await driverOf(request.auth.companyId, request.params.whatsappId);
      const { from, name, body, mediaType, mediaUrl, quotedId } = request.body;
      const media = mediaUrl ? { ...decodeDataUrl(mediaUrl), fileName: undefined } : undefined;
      const providerId = await driver
        .receive({ from, name, body, mediaType, media, quotedId })
        .catch((error: unknown) => {
          if (error instanceof AppError) throw error;
          throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: String(error) });
        });
      const [stored] = await ctx.db
        .select({ id: messages.id, ticketId: messages.ticketId })
        .from(messages)
        .where(and(eq(messages.whatsappId, request.params.whatsappId), eq(messages.wid, providerId)));
      if (!stored) throw new AppError('ERR_CREATING_MESSAGE');
      return reply.status(201).send(stored);
    },
  );
  app.get(
    '/simulator/:whatsappId/outbox',
    {
      config: adminRoute,
      schema: {
        tags,
        params: ZParams,
        querystring: z.object({ number: z.string().regex(/^\d{8,20}$/) }),
        response: { 200: z.array(ZSimulatorOutboxItem) },
      },
    },
    async (request) => {
      await driverOf(request.auth.companyId, request.params.whatsappId);
      return network.outbox(request.params.whatsappId, request.query.number);
    },
  );
  app.post(
    '/simulator/:whatsappId/read',
    {
      config: adminRoute,
      schema: { tags, params: ZParams, body: z.object({ number: z.string().regex(/^\d{8,20}$/) }) },
    },
    async (request, reply) => {
      await driverOf(request.auth.companyId, request.params.whatsappId);
      network.read(request.params.whatsappId, request.body.number);
      return reply.status(204).send();
    },
  );
}
