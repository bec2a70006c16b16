import { z } from 'zod';
import { boundedString } from './common.js';
import { ZQuickMessage, ZTag } from './tickets.js';

/** Tag with the number of tickets carrying it (GET /tags, document 2 section 3). */
export const ZTagWithCount = ZTag.extend({ ticketsCount: z.number() });
export type TagWithCount = z.infer<typeof ZTagWithCount>;

/** GET /tags page: 20 tags by name and whether more follow. */
export const ZTagsPage = z.object({ tags: z.array(ZTagWithCount), hasMore: z.boolean() });
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
export const ZQuickMessagesPage = z.object({ records: z.array(ZQuickMessage), hasMore: z.boolean() });
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
