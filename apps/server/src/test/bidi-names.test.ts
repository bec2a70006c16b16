/**
 * Names are stored without bidi embedding, override and isolate controls (U+202A..U+202E,
 * U+2066..U+2069), which would show them reordered ("gnp.exe" as "exe.png"): push names and file
 * names from the channels, and contact names saved through the API. The marks U+200E/U+200F and
 * ordinary right-to-left text are kept.
 */
import { withoutBidiControls } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { contacts, messages } from '../db/schema/index.js';
import { a, t, useConnectionSuite, whatsappId } from './connection-suite.js';
import { bearer, customerNumber, inboundMessage, injectAs } from './factories.js';

const RLO = '\u202E';
const spoofed = `Invoice ${RLO}gnp.exe`;

useConnectionSuite();
const inject = injectAs(() => t.app);

describe('withoutBidiControls', () => {
  it('removes embeddings, overrides and isolates and keeps marks and right-to-left letters', () => {
    expect(withoutBidiControls('a\u202Ab\u202Bc\u202Cd\u202De\u202Ef\u2066g\u2067h\u2068i\u2069j')).toBe(
      'abcdefghij',
    );
    expect(withoutBidiControls('\u200Fمرحبا\u200E שלום')).toBe('\u200Fمرحبا\u200E שלום');
  });
});

describe('names from the channels', () => {
  it('stores push names and file names without bidi controls', async () => {
    const ref = { id: whatsappId, companyId: a.companyId };
    const from = customerNumber();
    const result = await t.app.pipeline.ingest(
      ref,
      inboundMessage(from, '', {
        senderName: `${RLO}Maria\u2066 Silva\u2069`,
        mediaType: 'document',
        media: { mimetype: 'application/pdf', fileName: spoofed, download: async () => Buffer.from('%PDF') },
      }),
    );
    expect(result).toBeTruthy();
    const [message] = await t.app.ctx.db
      .select({ mediaName: messages.mediaName, contactId: messages.contactId })
      .from(messages)
      .where(eq(messages.id, result!.message.id));
    expect(message!.mediaName).toBe('Invoice gnp.exe');
    const [contact] = await t.app.ctx.db
      .select({ name: contacts.name })
      .from(contacts)
      .where(eq(contacts.id, message!.contactId!));
    expect(contact!.name).toBe('Maria Silva');

    // Positive control: a right-to-left name with its marks is stored as received.
    const other = await t.app.pipeline.ingest(
      ref,
      inboundMessage(customerNumber(), 'oi', { senderName: '\u200Fمريم' }),
    );
    const [plain] = await t.app.ctx.db
      .select({ name: contacts.name })
      .from(contacts)
      .where(eq(contacts.id, other!.message.contactId!));
    expect(plain!.name).toBe('\u200Fمريم');
  });
});

describe('names saved through the API', () => {
  it('stores contact names without bidi controls; a name of controls alone is refused', async () => {
    const created = await inject('POST', '/api/contacts', a.admin, {
      name: `Jo${RLO}ão`,
      number: customerNumber(),
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().name).toBe('João');

    const id = created.json().id as number;
    const renamed = await inject('PUT', `/api/contacts/${id}`, a.admin, { name: `\u2067Ana${RLO} Lima` });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Ana Lima');

    const empty = await inject('POST', '/api/contacts', a.admin, {
      name: `${RLO}\u2066`,
      number: customerNumber(),
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'name' });

    const imported = await inject('POST', '/api/contacts/import', a.admin, {
      contacts: [{ name: `Bia${RLO}`, number: customerNumber() }],
    });
    expect(imported.statusCode).toBeLessThan(300);
    const names = (
      await t.app.ctx.db
        .select({ name: contacts.name })
        .from(contacts)
        .where(eq(contacts.companyId, a.companyId))
    ).map((c) => c.name);
    expect(names).toContain('Bia');
    expect(names.some((name) => /[\u202A-\u202E\u2066-\u2069]/.test(name))).toBe(false);
  });
});

describe('file names uploaded through the API', () => {
  it('stores the file name of a message sent with an attachment without bidi controls', async () => {
    const inbound = await t.app.pipeline.ingest(
      { id: whatsappId, companyId: a.companyId },
      inboundMessage(customerNumber(), 'oi'),
    );
    const ticketId = inbound!.ticket.id;
    const boundary = '----zapdesk-bidi';
    const send = (fileName: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/messages/${ticketId}`,
        headers: { ...bearer(a.admin), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="${fileName}"\r\n` +
            `Content-Type: application/pdf\r\n\r\n%PDF-1.4\r\n--${boundary}--\r\n`,
        ),
      });
    const names = async () =>
      (
        await t.app.ctx.db
          .select({ mediaName: messages.mediaName })
          .from(messages)
          .where(eq(messages.ticketId, ticketId))
      ).map((m) => m.mediaName);
    expect((await send(spoofed)).statusCode).toBeLessThan(300);
    // Positive control: an ordinary name is kept as sent.
    expect((await send('relatório.pdf')).statusCode).toBeLessThan(300);
    expect(await names()).toEqual(expect.arrayContaining(['Invoice gnp.exe', 'relatório.pdf']));
    expect((await names()).some((name) => name?.includes(RLO))).toBe(false);
  });
});
