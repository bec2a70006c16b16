import { and, asc, eq, gt, or } from 'drizzle-orm';
import Papa from 'papaparse';
import type { AppContext } from '../../context.js';
import { contacts } from '../../db/schema/index.js';
import type { AuthContext } from '../../lib/guards.js';

/** Contacts read per statement while streaming the export. */
const EXPORT_BATCH = 1000;

/**
 * Cells a spreadsheet would read as a formula: starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return, or their full-width forms some locales of Excel also accept.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** One contact line's values. */
export interface CsvContact {
  name: string;
  number: string;
  email: string;
}

/**
 * `contacts` as CSV lines `name;number;email` (core section 2 Contacts: ';' separator), joined with
 * CRLF, after the header line when `header`. A value a spreadsheet would run as a formula (a
 * WhatsApp name `=HYPERLINK(...)`) is written quoted behind a `'`, so it opens as text.
 */
export function contactsCsv(contacts: readonly CsvContact[], header = true): string {
  return Papa.unparse(
    contacts.map((c) => ({ name: c.name, number: c.number, email: c.email })),
    { delimiter: ';', columns: ['name', 'number', 'email'], header, escapeFormulae: FORMULA_START },
  );
}

/**
 * GET /contacts/export (core section 2 Contacts, 'export CSV'): every contact of the caller's company
 * as `name;number;email` lines by name, preceded by a UTF-8 byte-order mark and the header line,
 * read in keyset batches of 1,000 (one statement per batch, never the whole table in memory). A
 * value a spreadsheet would run as a formula is written quoted behind a `'`.
 * @returns the CSV text in chunks, one per batch.
 */
export async function* exportContactsCsv(ctx: AppContext, auth: AuthContext): AsyncGenerator<string> {
  yield `\uFEFF${contactsCsv([])}`;
  let after: { name: string; id: number } | null = null;
  for (;;) {
    const rows: { id: number; name: string; number: string; email: string }[] = await ctx.db
      .select({ id: contacts.id, name: contacts.name, number: contacts.number, email: contacts.email })
      .from(contacts)
      .where(
        and(
          eq(contacts.companyId, auth.companyId),
          after
            ? or(gt(contacts.name, after.name), and(eq(contacts.name, after.name), gt(contacts.id, after.id)))
            : undefined,
        ),
      )
      .orderBy(asc(contacts.name), asc(contacts.id))
      .limit(EXPORT_BATCH);
    if (rows.length === 0) return;
    yield `\r\n${contactsCsv(rows, false)}`;
    const last = rows[rows.length - 1]!;
    after = { name: last.name, id: last.id };
    if (rows.length < EXPORT_BATCH) return;
  }
}
