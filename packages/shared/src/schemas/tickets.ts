import { z } from 'zod';
import { mediaFields, pageOf, timestampFields, ZNamedRef } from './answers.js';
import { falseAsNull, looseBoolean } from './classic.js';
import { INT4_MAX, ZId, ZPageQuery } from './common.js';
import { ZContact } from './contacts.js';
import { ZQueueRef } from './queues.js';

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export const ZTicketStatus = z.enum(TICKET_STATUSES);
export type TicketStatus = z.infer<typeof ZTicketStatus>;

/** Ticket (core section 3). */
export const ZTicket = z.object({
  id: z.number(),
  uuid: z.string(),
  /** The ticket's protocol number (core section 3 `code`): creation day yyyyMMdd and the id. */
  code: z.string(),
  status: ZTicketStatus,
  userId: z.number().nullable(),
  user: ZNamedRef.nullable(),
  queueId: z.number().nullable(),
  queue: ZQueueRef.nullable(),
  whatsappId: z.number().nullable(),
  whatsapp: ZNamedRef.nullable(),
  contactId: z.number(),
  contact: ZContact.pick({
    id: true,
    name: true,
    number: true,
    email: true,
    profilePicUrl: true,
    isGroup: true,
  }),
  companyId: z.number(),
  tags: z.array(z.object({ id: z.number(), name: z.string(), color: z.string() })),
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  unreadMessages: z.number(),
  lastMessage: z.string(),
  useIntegration: z.boolean(),
  promptId: z.number().nullable(),
  integrationId: z.number().nullable(),
  ...timestampFields,
  /**
   * Service levels (docs/reports.md): when this opening's first agent reply and closing are due
   * (ISO); null when the queue sets no target, the target was met or the due time is not computed
   * yet. Every list and show answer carries them; some realtime events leave them out. Last, after
   * the timestamps: optional keys come after the required ones in the list's compiled serializer.
   */
  firstResponseDueAt: z.string().nullable().optional(),
  resolutionDueAt: z.string().nullable().optional(),
});
export type Ticket = z.infer<typeof ZTicket>;

/** A JSON array of ids in a query string ('[1,2]'), or a comma list ('1,2'). */
export const idList = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((value, ctx) => {
    if (value === undefined || value === '') return undefined;
    const text = Array.isArray(value) ? value.join(',') : value;
    let items: unknown[];
    try {
      items = text.trim().startsWith('[') ? (JSON.parse(text) as unknown[]) : text.split(',');
    } catch {
      ctx.addIssue({ code: 'custom', message: 'invalid' });
      return z.NEVER;
    }
    const ids = items.map((v) => Number(v));
    if (!Array.isArray(items) || ids.some((n) => !Number.isInteger(n) || n < 0 || n > INT4_MAX)) {
      ctx.addIssue({ code: 'custom', message: 'invalid' });
      return z.NEVER;
    }
    return ids;
  });

/** A boolean query parameter: true, 'true'; anything else absent or 'false' is false. */
export const boolParam = z
  .union([z.boolean(), z.enum(['true', 'false'])])
  .optional()
  .transform((v) => v === true || v === 'true');

/** The orders of GET /tickets (`sortBy`). */
export const TICKET_SORTS = ['updatedAt', 'due'] as const;
export type TicketSort = (typeof TICKET_SORTS)[number];

/**
 * A day written yyyy-MM-dd, checked for its form only (unlike the dashboard's ZIsoDate, which also
 * refuses impossible dates with 'invalidDate').
 */
const ZDayText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * GET /tickets query (core section 7). `queueIds`, `tags` and `users` are JSON arrays of ids;
 * `status` one of open, pending, closed; `date` (yyyy-MM-dd) the creation day; `updatedAt`
 * (yyyy-MM-dd) the last update day; `showAll` only for permitted roles; `withUnreadMessages`.
 */
export const ZTicketsQuery = z.object({
  ...ZPageQuery.shape,
  status: ZTicketStatus.optional(),
  queueIds: idList,
  tags: idList,
  users: idList,
  date: ZDayText.optional(),
  updatedAt: ZDayText.optional(),
  showAll: boolParam,
  withUnreadMessages: boolParam,
  /**
   * The order of a plain list (a search keeps its own): `updatedAt`, newest update first (default),
   * or `due`, the nearest service-level due time first (the earlier of `firstResponseDueAt` and
   * `resolutionDueAt`; tickets without one last), then by id.
   */
  sortBy: z.enum(TICKET_SORTS).optional().default('updatedAt'),
  /**
   * Keyset paging: the `nextCursor` of the previous page; the page then starts right after
   * that ticket in the list's order and `pageNumber` is ignored.
   */
  cursor: z
    .string()
    .max(40)
    .regex(/^\d{1,17}\.\d{1,10}$/)
    .optional(),
});
export type TicketsQuery = z.input<typeof ZTicketsQuery>;

/**
 * A page of GET /tickets. `count` is exact when the filters are only status, queues, users and the
 * caller's visibility (the tabs' badges), otherwise exact up to TICKETS_COUNT_BOUND matching tickets
 * and that bound beyond (a search's count is a lower bound); `nextCursor` (plain lists only) asks for
 * the next page.
 */
export const ZTicketsPage = pageOf('tickets', ZTicket).extend({
  count: z.number(),
  nextCursor: z.string().optional(),
});

/** GET /tickets counts tickets filtered by tags, days or unread exactly up to this many (a bounded count). */
export const TICKETS_COUNT_BOUND = 10_000;

/** POST /tickets: a ticket started by staff begins open (core section 4). */
export const ZCreateTicketBody = z.object({
  contactId: ZId,
  queueId: ZId.nullable().optional(),
  whatsappId: ZId.nullable().optional(),
  userId: ZId.nullable().optional(),
  status: ZTicketStatus.optional(),
});

/** PUT /tickets/:id (core section 4 transitions). */
export const ZUpdateTicketBody = z.object({
  status: ZTicketStatus.optional(),
  userId: ZId.nullable().optional(),
  queueId: ZId.nullable().optional(),
  whatsappId: ZId.nullable().optional(),
  useIntegration: looseBoolean.optional(),
  /** An id, null, or false (none) as the classic client sends when closing. */
  promptId: falseAsNull(ZId.nullable()).optional(),
  /** An id, null, or false (none) as the classic client sends when closing. */
  integrationId: falseAsNull(ZId.nullable()).optional(),
});
export type UpdateTicketBody = z.input<typeof ZUpdateTicketBody>;
/** PUT /tickets/:id body after validation (0/1 and false read as boolean and null). */
export type UpdateTicketFields = z.output<typeof ZUpdateTicketBody>;

/** Ticket note (core section 3). */
export const ZTicketNote = z.object({
  id: z.number(),
  note: z.string(),
  ticketId: z.number(),
  contactId: z.number(),
  userId: z.number().nullable(),
  user: ZNamedRef.nullable(),
  /** The users the note mentions (`@Name`): each was told of it (docs/inbox.md "Notes and mentions"). */
  mentionedUserIds: z.array(z.number()),
  ...timestampFields,
});
export type TicketNote = z.infer<typeof ZTicketNote>;

/** Most users one note may mention. */
export const NOTE_MENTIONS_MAX = 20;

/**
 * POST /ticket-notes. `mentionedUserIds`: users of the company who can open the ticket (others are
 * refused), each told of the note by a socket event, a push and the notifications list.
 */
export const ZCreateTicketNoteBody = z.object({
  note: z.string().trim().min(2, 'tooShort').max(5000, 'tooLong'),
  ticketId: ZId,
  contactId: ZId,
  mentionedUserIds: z.array(ZId).max(NOTE_MENTIONS_MAX).optional().default([]),
});
export type CreateTicketNoteBody = z.input<typeof ZCreateTicketNoteBody>;

/**
 * A mention of the caller in a ticket note, as the notifications list shows it (GET
 * /ticket-notes/mentions and the `ticketNote` socket event `mention`): the note, its ticket and
 * author, and when the caller read it (null: unread).
 */
export const ZNoteMention = z.object({
  noteId: z.number(),
  ticketId: z.number(),
  ticketUuid: z.string(),
  contactName: z.string(),
  author: ZNamedRef.nullable(),
  note: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export type NoteMention = z.infer<typeof ZNoteMention>;

/** GET /ticket-notes/mentionable: the users a note on the ticket may mention (those who can open it). */
export const ZMentionableUsers = z.array(ZNamedRef);

/** Tag (document 2 section 3). */
export const ZTag = z.object({ id: z.number(), name: z.string(), color: z.string(), kanban: z.number() });
export type Tag = z.infer<typeof ZTag>;

/** POST /tags/sync: the ticket's tags become exactly `tags` (ids or tag objects). */
export const ZSyncTagsBody = z.object({
  ticketId: ZId,
  tags: z.array(z.union([ZId, z.object({ id: ZId }).passthrough()])).max(100),
});

/** Quick message (core section 3, document 2). */
export const ZQuickMessage = z.object({
  id: z.number(),
  shortcode: z.string(),
  message: z.string(),
  ...mediaFields,
  /** True when the quick message carries an attachment (document 2 section 1 Quick message). */
  isMedia: z.boolean(),
  geral: z.boolean(),
  userId: z.number().nullable(),
});
export type QuickMessage = z.infer<typeof ZQuickMessage>;
