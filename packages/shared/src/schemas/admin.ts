import { z } from 'zod';
import { pageOf } from './answers.js';
import { boundedString, ZCoercedId } from './common.js';
import { boolParam, idList, ZQuickMessage, ZTag, ZTicketStatus } from './tickets.js';

/** Tag with the number of tickets carrying it (GET /tags, document 2 section 3). */
export const ZTagWithCount = ZTag.extend({ ticketsCount: z.number() });
export type TagWithCount = z.infer<typeof ZTagWithCount>;

/** GET /tags page: 20 tags by name and whether more follow. */
export const ZTagsPage = pageOf('tags', ZTagWithCount);
export type TagsPage = z.infer<typeof ZTagsPage>;

/** GET /tags/kanban: the company's kanban lanes (tags flagged kanban). */
export const ZKanbanTags = z.object({ lista: z.array(ZTag) });

/**
 * POST /tags and PUT /tags/:id body (document 2 section 5): name required, 3..50 characters;
 * colour 3..9 (default '#5C59A0'); kanban 0/1 (admins only; ignored for other profiles).
 */
export const ZTagBody = z.object({
  name: boundedString(3, 50),
  color: boundedString(3, 9).optional(),
  kanban: z
    .union([z.boolean(), z.number().int().min(0).max(1)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Number(v))),
});
export type TagBody = z.input<typeof ZTagBody>;

/** GET /quick-messages page. */
export const ZQuickMessagesPage = pageOf('records', ZQuickMessage);
export type QuickMessagesPage = z.infer<typeof ZQuickMessagesPage>;

/**
 * POST /quick-messages and PUT /quick-messages/:id body (document 2 section 5): shortcode required
 * (1..100, unique per company and owner); `geral` makes it company-wide.
 */
export const ZQuickMessageBody = z.object({
  shortcode: boundedString(1, 100),
  message: z.string().max(10_000, 'tooLong').optional().default(''),
  geral: z.boolean().optional().default(false),
});
export type QuickMessageBody = z.input<typeof ZQuickMessageBody>;

/**
 * GET /ticket/kanban query (document 2 sections 6 and 7): `queueIds` a JSON array of the user's
 * queue ids (tickets of those queues and those without a queue), `showAll` (admins only: every
 * ticket of the company), `pageNumber` (1-based, KANBAN_PAGE_SIZE tickets a page).
 */
export const ZKanbanQuery = z.object({
  queueIds: idList,
  showAll: boolParam,
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type KanbanQuery = z.input<typeof ZKanbanQuery>;

/** Live tickets per page of GET /ticket/kanban. */
export const KANBAN_PAGE_SIZE = 500;

/** A card of the board (document 2 section 3 Kanban ticket): id, uuid, tags, contact, lastMessage. */
export const ZKanbanTicket = z.object({
  id: z.number(),
  uuid: z.string(),
  status: ZTicketStatus,
  queueId: z.number().nullable(),
  userId: z.number().nullable(),
  contact: z.object({ id: z.number(), name: z.string(), number: z.string() }),
  lastMessage: z.string(),
  tags: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  updatedAt: z.string(),
});
export type KanbanTicket = z.infer<typeof ZKanbanTicket>;

/** GET /ticket/kanban answer: a page of live tickets, newest update first. */
export const ZKanbanPage = pageOf('tickets', ZKanbanTicket);
export type KanbanPage = z.infer<typeof ZKanbanPage>;

/** PUT /ticket-tags/:ticketId/:tagId and DELETE /ticket-tags/:ticketId path. */
export const ZTicketTagParams = z.object({ ticketId: ZCoercedId, tagId: ZCoercedId });
export const ZTicketIdParam = z.object({ ticketId: ZCoercedId });

/**
 * PUT /ticket-tags/:ticketId/:tagId query: `replace=true` also removes the ticket's other kanban
 * tags in the same transaction (a card moved between lanes in one request).
 */
export const ZTicketTagQuery = z.object({ replace: boolParam });
