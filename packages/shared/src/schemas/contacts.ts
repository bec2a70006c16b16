import { z } from 'zod';
import { pageOf, timestampFields, ZNamedRef } from './answers.js';
import { withoutBidiControls, ZPageQuery } from './common.js';
import { ZIsoDate } from './dashboard.js';

export const ZExtraInfo = z.object({ id: z.number().optional(), name: z.string(), value: z.string() });

/**
 * Contact (core section 3). `number` is digits only; `whatsapp` is the contact's connection (the
 * one its latest ticket runs on), null before any ticket.
 */
export const ZContact = z.object({
  id: z.number(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string().nullable(),
  isGroup: z.boolean(),
  companyId: z.number(),
  extraInfo: z.array(ZExtraInfo).optional(),
  whatsapp: ZNamedRef.nullable().optional(),
  ...timestampFields,
});
export type Contact = z.infer<typeof ZContact>;

/** GET /contacts answer (core section 7). */
export const ZContactsPage = pageOf('contacts', ZContact).extend({
  count: z.number(),
});
export type ContactsPage = z.infer<typeof ZContactsPage>;

/**
 * GET /contacts query (core section 7): the page query plus the creation-date filters, whole local
 * days (yyyy-MM-dd, DASHBOARD_TIME_ZONE): `date` one day, `dateStart`/`dateEnd` either end of a
 * range (each alone leaves the other side open). `dateEnd` before `dateStart` is refused
 * (`beforeStart`).
 */
export const ZContactsQuery = ZPageQuery.extend({
  date: ZIsoDate.optional(),
  dateStart: ZIsoDate.optional(),
  dateEnd: ZIsoDate.optional(),
}).superRefine((q, ctx) => {
  if (q.dateStart && q.dateEnd && q.dateEnd < q.dateStart) {
    ctx.addIssue({ code: 'custom', path: ['dateEnd'], message: 'beforeStart' });
  }
});
export type ContactsQuery = z.infer<typeof ZContactsQuery>;

/** One extra-info row of the contact form (core section 5): name and value. */
export const ZExtraInfoBody = z.object({
  name: z.string().trim().min(1, 'required').max(100, 'tooLong'),
  value: z.string().trim().max(1000, 'tooLong'),
});

/** POST /contacts and PUT /contacts/:id (core section 5 contact form): number kept as digits. */
export const ZContactBody = z.object({
  name: z
    .string()
    .overwrite(withoutBidiControls)
    .trim()
    .min(1, 'required')
    .min(2, 'tooShort')
    .max(50, 'tooLong'),
  number: z
    .string()
    .trim()
    .transform((v) => v.replace(/\D/g, ''))
    .pipe(z.string().min(8, 'tooShort').max(50, 'tooLong')),
  email: z
    .union([z.literal(''), z.string().trim().email('invalidEmail').max(254, 'tooLong')])
    .optional()
    .default(''),
  extraInfo: z.array(ZExtraInfoBody).max(50).optional(),
});
export type ContactBody = z.input<typeof ZContactBody>;

/** GET /contacts/list item (pickers): the spec's `companyId` parameter is ignored. */
export const ZContactListItem = z.object({ id: z.number(), name: z.string(), number: z.string() });
export const ZContactList = z.array(ZContactListItem);
export type ContactListItem = z.infer<typeof ZContactListItem>;

const ZSheetCell = z.union([z.string().max(1000), z.number()]).transform((v) => String(v));
/**
 * POST /contacts/import body (core section 7): the rows already read from a sheet, at most 10,000,
 * each with name, number and optional e-mail (numbers accepted as numbers, as sheet cells hold them).
 */
export const ZContactImportBody = z.object({
  contacts: z
    .array(
      z.object({
        name: ZSheetCell.optional().default(''),
        number: ZSheetCell.optional().default(''),
        email: ZSheetCell.optional().default(''),
      }),
    )
    .max(10_000),
});
export type ContactImportBody = z.input<typeof ZContactImportBody>;

/** POST /contacts/upload and /contacts/import answer (core section 7): one errorBag entry per failing row. */
export const ZContactImportResult = z.object({
  newContacts: z.array(z.object({ contactId: z.number(), contactName: z.string() })),
  errorBag: z.array(z.object({ contactName: z.string(), error: z.string() })),
});
export type ContactImportResult = z.infer<typeof ZContactImportResult>;

/** Error codes of an import row (errorBag[].error). */
export const CONTACT_IMPORT_ERRORS = [
  'ERR_DUPLICATED_CONTACT',
  'ERR_INVALID_NUMBER',
  'ERR_MISSING_NAME',
  'ERR_INVALID_NAME',
  'ERR_INVALID_EMAIL',
] as const;
