import ExcelJS from 'exceljs';
import { AppError } from '../../lib/app-error.js';
import type { ImportRow } from './contacts-service.js';

const HEADERS: Record<string, keyof ImportRow> = {
  name: 'name',
  nome: 'name',
  number: 'number',
  numero: 'number',
  número: 'number',
  email: 'email',
  'e-mail': 'email',
};

/** The text of an exceljs cell value (string, number, rich text, hyperlink, formula result). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  if ('richText' in value) return value.richText.map((r) => r.text).join('');
  if ('text' in value) return cellText(value.text as ExcelJS.CellValue);
  if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
  return '';
}

/**
 * Reads the first worksheet of an .xlsx file: the first row names the columns (name/nome,
 * number/numero/número, email, case-insensitive), each later non-empty row is one contact.
 * @throws ERR_UNSUPPORTED_MEDIA_TYPE when the buffer is not a readable .xlsx workbook.
 */
export async function readContactSheet(data: Buffer): Promise<ImportRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new AppError('ERR_UNSUPPORTED_MEDIA_TYPE');
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const columns = new Map<number, keyof ImportRow>();
  sheet.getRow(1).eachCell((cell, col) => {
    const key = HEADERS[cellText(cell.value).trim().toLowerCase()];
    if (key) columns.set(col, key);
  });
  const rows: ImportRow[] = [];
  sheet.eachRow((row, index) => {
    if (index === 1) return;
    const item: ImportRow = { name: '', number: '', email: '' };
    for (const [col, key] of columns) item[key] = cellText(row.getCell(col).value).trim();
    if (item.name || item.number || item.email) rows.push(item);
  });
  return rows;
}
