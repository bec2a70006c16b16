import type { Contact } from '@zapdesk/shared';
import Papa from 'papaparse';

/** The CSV export of the contacts page: `name;number;email`, one line per contact (core section 2). */
export function contactsCsv(contacts: Pick<Contact, 'name' | 'number' | 'email'>[]): string {
  return Papa.unparse(
    contacts.map((c) => ({ name: c.name, number: c.number, email: c.email })),
    { delimiter: ';', columns: ['name', 'number', 'email'] },
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
