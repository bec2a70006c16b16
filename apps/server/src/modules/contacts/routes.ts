import { Readable } from 'node:stream';
import {
  ZContact,
  ZContactBody,
  ZContactImportBody,
  ZContactImportResult,
  ZContactList,
  ZContactsPage,
  ZContactsQuery,
} from '@zapdesk/shared';
import type { AppContext, ZodApp } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { adminRoute, userRoute } from '../../lib/guards.js';
import { resourceRoutes } from '../common/resource-routes.js';
import { routeTable } from '../common/route-table.js';
import { exportContactsCsv } from './contacts-csv.js';
import {
  createContact,
  deleteContact,
  getContact,
  importContacts,
  listContacts,
  listContactsForPicker,
  updateContact,
} from './contacts-service.js';
import { readContactSheet } from './spreadsheet.js';

export { toContact } from './contacts-service.js';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Contacts API (core section 7 Contacts): list, picker list, read, create, edit, delete, import. */
export function contactRoutes(app: ZodApp, ctx: AppContext): void {
  const tags = ['contacts'];
  resourceRoutes(app, {
    path: '/contacts',
    tags,
    item: ZContact,
    updateBody: ZContactBody.partial(),
    query: ZContactsQuery,
    page: ZContactsPage,
    list: [userRoute, (auth, query) => listContacts(ctx, auth, query)],
    show: [userRoute, (auth, id) => getContact(ctx, auth.companyId, id)],
    update: [userRoute, (auth, id, body) => updateContact(ctx, auth, id, body)],
    remove: [adminRoute, (auth, id) => deleteContact(ctx, auth, id)],
  });
  const route = routeTable(app, tags, userRoute);
  route.get('/contacts/export', { produces: ['text/csv'] }, (request, reply) =>
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="contatos.csv"')
      .header('cache-control', 'no-store')
      .send(Readable.from(exportContactsCsv(ctx, request.auth))),
  );
  route.get('/contacts/list', { reply: ZContactList }, (request) => listContactsForPicker(ctx, request.auth));
  // POST /contacts answers 200, not the 201 of the other resources' create: its answer is kept as is.
  route.post('/contacts', { body: ZContactBody, reply: ZContact }, (request) =>
    createContact(ctx, request.auth, request.body),
  );
  route.post('/contacts/upload', { reply: ZContactImportResult }, async (request) => {
    if (!request.isMultipart()) throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
    let data: Buffer | undefined;
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      const isXlsx = part.mimetype === XLSX_MIME || /\.xlsx$/i.test(part.filename);
      if (part.fieldname !== 'file' || !isXlsx || data) {
        await part.toBuffer();
        throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
      }
      data = await part.toBuffer();
    }
    if (!data) throw new AppError('ERR_VALIDATION', { extra: { field: 'file', message: 'required' } });
    const rows = await readContactSheet(data);
    return importContacts(ctx, request.auth, rows);
  });
  // The rows of a sheet read elsewhere (a client that parses the spreadsheet itself), checked and
  // stored exactly as an upload's rows.
  route.post('/contacts/import', { body: ZContactImportBody, reply: ZContactImportResult }, (request) =>
    importContacts(ctx, request.auth, request.body.contacts),
  );
}
