import { z } from 'zod';
import { pageOf } from './answers.js';
import { boundedString, V, ZCoercedId, ZEmail, ZId, ZPageQuery } from './common.js';

/** Contact list with its number of items (document 2 section 3 "Contact list"). */
export const ZContactListWithCount = z.object({
  id: z.number(),
  name: z.string(),
  contactsCount: z.number(),
});
export type ContactListWithCount = z.infer<typeof ZContactListWithCount>;

/** GET /contact-lists page. */
export const ZContactListsPage = pageOf('records', ZContactListWithCount);
export type ContactListsPage = z.infer<typeof ZContactListsPage>;

/** POST/PUT /contact-lists body: name 2 to 50 characters (document 2 section 5). */
export const ZContactListBody = z.object({ name: boundedString(2, 50) });
export type ContactListBody = z.input<typeof ZContactListBody>;

/** Contact list item (document 2 section 3); `isWhatsappValid` null until checked. */
export const ZContactListEntry = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  isWhatsappValid: z.boolean().nullable(),
  companyId: z.number(),
  contactListId: z.number(),
});
export type ContactListEntry = z.infer<typeof ZContactListEntry>;

/** GET /contact-list-items page. */
export const ZContactListItemsPage = pageOf('contacts', ZContactListEntry);
export type ContactListItemsPage = z.infer<typeof ZContactListItemsPage>;

/** GET /contact-list-items query: the list, search text and page. */
export const ZContactListItemsQuery = ZPageQuery.extend({ contactListId: ZCoercedId });

/**
 * A phone number as lists store it: 8 to 50 characters typed (document 2 section 5), of which the
 * digits (8 to 20) are kept.
 */
export const ZListNumber = z
  .string({ error: V.required })
  .trim()
  .min(1, V.required)
  .min(8, V.tooShort)
  .max(50, V.tooLong)
  .transform((s) => s.replace(/\D/g, ''))
  .refine((d) => d.length >= 8 && d.length <= 20, V.invalidPhone);

/** POST/PUT /contact-list-items body (document 2 section 5: name 2–50, number 8–50, valid email). */
export const ZContactListItemBody = z.object({
  contactListId: ZId,
  name: boundedString(2, 50),
  number: ZListNumber,
  email: z
    .union([z.literal(''), ZEmail])
    .optional()
    .default(''),
});
export type ContactListItemBody = z.input<typeof ZContactListItemBody>;

/** One rejected sheet row: 1-based row number, field and message key. */
export const ZContactListImportError = z.object({ row: z.number(), field: z.string(), message: z.string() });

/** A sheet import's state (POST /contact-lists/:id/upload answer, GET …/import, realtime progress). */
export const ZContactListImport = z.object({
  id: z.number(),
  contactListId: z.number(),
  status: z.enum(['pending', 'running', 'done', 'failed']),
  total: z.number(),
  processed: z.number(),
  imported: z.number(),
  duplicates: z.number(),
  errors: z.array(ZContactListImportError),
});
export type ContactListImport = z.infer<typeof ZContactListImport>;
