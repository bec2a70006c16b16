import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { AppError } from '../../lib/app-error.js';

/** One data row of a contact list sheet, as typed (1-based sheet row number). */
export interface SheetRow {
  row: number;
  name: string;
  number: string;
  email: string;
}

const HEADERS: Record<string, 'name' | 'number' | 'email'> = {
  name: 'name',
  nome: 'name',
  nombre: 'name',
  number: 'number',
  numero: 'number',
  número: 'number',
  phone: 'number',
  telefone: 'number',
  email: 'email',
  'e-mail': 'email',
  correo: 'email',
};

/** The text of an exceljs cell value (string, number, rich text, hyperlink, formula result). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return (v.richText as { text: string }[]).map((r) => r.text).join('');
    if ('text' in v) return cellText(v.text);
    if ('result' in v) return cellText(v.result);
  }
  return '';
}

/**
 * Checks that an upload is an .xlsx workbook (a zip). An .xls (OLE2) file or a name ending in .xls
 * is refused naming the format: no maintained .xls reader is available to the server.
 * @throws ERR_UNSUPPORTED_MEDIA_TYPE with `field: 'file'` and `message` 'xlsNotSupported' or 'notXlsx'.
 */
export function assertXlsx(data: Buffer, fileName: string): void {
  const ole2 = data.length >= 4 && data.readUInt32BE(0) === 0xd0cf11e0;
  if (ole2 || /\.xls$/i.test(fileName))
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', {
      extra: { field: 'file', message: 'xlsNotSupported', format: 'xls' },
    });
  const zip = data.length >= 4 && data[0] === 0x50 && data[1] === 0x4b;
  if (!zip)
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE', {
      extra: { field: 'file', message: 'notXlsx', format: 'xlsx' },
    });
}

/**
 * Streams the rows of the first worksheet of an .xlsx workbook, without holding the whole sheet in
 * memory and yielding to the event loop between rows (large sheets never block the server). The
 * first row names the columns (nome/name, numero/number, email, case-insensitive); without such a
 * header the columns are read as name, number, email and the first row is data. Empty rows skipped.
 * @throws Error when the workbook cannot be read.
 */
export async function* readListSheet(data: Buffer): AsyncGenerator<SheetRow> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  for await (const worksheet of reader) {
    let columns: Map<number, 'name' | 'number' | 'email'> | undefined;
    for await (const row of worksheet as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values as unknown[]) ?? [];
      if (!columns) {
        const found = new Map<number, 'name' | 'number' | 'email'>();
        values.forEach((v, col) => {
          const key = HEADERS[cellText(v).trim().toLowerCase()];
          if (key) found.set(col, key);
        });
        const header = [...found.values()].includes('number');
        columns = header
          ? found
          : new Map([
              [1, 'name'],
              [2, 'number'],
              [3, 'email'],
            ]);
        if (header) continue;
      }
      const item: SheetRow = { row: row.number, name: '', number: '', email: '' };
      for (const [col, key] of columns) item[key] = cellText(values[col]).trim();
      if (item.name || item.number || item.email) yield item;
    }
    return; // only the first worksheet
  }
}

/** The sample sheet offered for download (document 2 section 4): header and two example rows. */
export async function sampleSheet(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  sheet.columns = [
    { header: 'Nome', key: 'name', width: 30 },
    { header: 'Numero', key: 'number', width: 20 },
    { header: 'Email', key: 'email', width: 30 },
  ];
  sheet.addRow({ name: 'Maria Silva', number: '5511999990001', email: 'maria@exemplo.com.br' });
  sheet.addRow({ name: 'João Souza', number: '5521988880002', email: '' });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
