import type { Contact } from '@zapdesk/shared';
import Papa from 'papaparse';

/**
 * Cells a spreadsheet would read as a formula: starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return, or the full-width `＝ ＋ － ＠` some locales of Excel also accept. PapaParse's own default
 * pattern stops at a line break inside the value; this one looks at the first character only.
 */
const FORMULA_START = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * The CSV export of the contacts page: `name;number;email`, one line per contact (core section 2).
 * A value a spreadsheet would run as a formula (a WhatsApp name `=HYPERLINK(...)`) is written
 * quoted behind a `'`, so it opens as text (PapaParse's `escapeFormulae`).
 */
export function contactsCsv(contacts: Pick<Contact, 'name' | 'number' | 'email'>[]): string {
  return Papa.unparse(
    contacts.map((c) => ({ name: c.name, number: c.number, email: c.email })),
    { delimiter: ';', columns: ['name', 'number', 'email'], escapeFormulae: FORMULA_START },
  );
}

/** Makes the browser download `text` as `fileName` (contatos.csv). */
export function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
