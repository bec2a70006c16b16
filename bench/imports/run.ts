/**
 * Contact list import (bench/imports): an .xlsx of N rows (default 50,000; 2% broken numbers and 2%
 * repeated numbers) uploaded to POST /contact-lists/:id/upload, then the import job drained. Reports
 * the upload's answer time, rows per second, Node and Postgres CPU ms per row and the process's
 * peak resident memory above its start, checks the counts (imported, duplicates, errors) against
 * what the sheet holds, and rewrites its section of docs/benchmarks.md unless `--no-write`.
 *
 *   npx tsx --conditions=source bench/imports/run.ts [--rows 50000] [--backends postgres,pglite] [--no-write]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server
 */
import crypto from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { ZContactListImport } from '@zapdesk/shared';
import ExcelJS from 'exceljs';
import { bearer, createCompany, createUser } from '../../apps/server/src/test/factories.js';
import { openBenchApp } from '../support/app.js';
import type { BenchBackend } from '../support/database.js';
import { lastRunLine } from '../support/facts.js';
import { f0, f1, f2, type Load, pct, startLoad } from '../support/load.js';
import { benchArgs, countOption, runBench, runPerBackend } from '../support/options.js';
import { commandBlock, writeOrPrint } from '../support/report.js';

const HEADING = '## Contact list import (bench/imports)';

interface Result {
  backend: BenchBackend;
  rows: number;
  sheetBytes: number;
  uploadMs: number;
  importMs: number;
  nodeCpuMs: number;
  load?: Load;
  peakRssMb: number;
  imported: number;
  duplicates: number;
  errors: number;
}

/** The sheet: header, then `rows` rows; every 50th number broken, every 50th (offset 25) repeated. */
async function sheet(
  rows: number,
): Promise<{ data: Buffer; valid: number; repeated: number; broken: number }> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet('Contatos');
  ws.addRow(['Nome', 'Numero', 'Email']);
  let broken = 0;
  let repeated = 0;
  for (let i = 0; i < rows; i++) {
    let number = String(5511900000000 + i);
    if (i % 50 === 0) {
      number = 'abc';
      broken++;
    } else if (i % 50 === 25 && i > 25) {
      number = String(5511900000000 + i - 1);
      repeated++;
    }
    ws.addRow([`Cliente ${i}`, number, i % 3 === 0 ? `cliente${i}@exemplo.com.br` : '']);
  }
  return {
    data: Buffer.from(await workbook.xlsx.writeBuffer()),
    valid: rows - broken - repeated,
    repeated,
    broken,
  };
}

function multipart(data: Buffer) {
  const boundary = `----zapdesk-bench-${crypto.randomBytes(6).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="contatos.xlsx"\r\n` +
      'Content-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n',
  );
  return {
    payload: Buffer.concat([head, data, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function run(backend: BenchBackend, rows: number): Promise<Result> {
  const bench = await openBenchApp(backend, 'imports');
  const { app, ref } = bench;
  let sampler: NodeJS.Timeout | undefined;
  try {
    const companyId = await createCompany(app, { plan: { useCampaigns: true } });
    const admin = await createUser(app, companyId, { profile: 'admin' });
    const list = await app.inject({
      method: 'POST',
      url: '/api/contact-lists',
      headers: bearer(admin),
      payload: { name: 'Importados' },
    });
    const listId = list.json().id as number;
    const built = await sheet(rows);
    const body = multipart(built.data);
    global.gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 50);
    const stopLoad = ref ? await startLoad(ref) : undefined;
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: `/api/contact-lists/${listId}/upload`,
      headers: { ...bearer(admin), ...body.headers },
      payload: body.payload,
    });
    const uploadMs = performance.now() - started;
    if (res.statusCode !== 202) throw new Error(`upload ${res.statusCode} ${res.body}`);
    await app.jobs.drain();
    const importMs = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const load = stopLoad ? await stopLoad() : undefined;
    clearInterval(sampler);
    const done = ZContactListImport.parse(
      (
        await app.inject({
          method: 'GET',
          url: `/api/contact-lists/${listId}/import`,
          headers: bearer(admin),
        })
      ).json(),
    );
    if (done.status !== 'done') throw new Error(`import ${done.status}`);
    if (done.imported !== built.valid || done.duplicates !== built.repeated)
      throw new Error(
        `imported ${done.imported}/${built.valid}, duplicates ${done.duplicates}/${built.repeated}, errors ${done.errors.length}/${built.broken}`,
      );
    return {
      backend,
      rows,
      sheetBytes: built.data.length,
      uploadMs,
      importMs,
      nodeCpuMs: (cpu.user + cpu.system) / 1000,
      load,
      peakRssMb: (peak - rss0) / 1024 / 1024,
      imported: done.imported,
      duplicates: done.duplicates,
      errors: done.errors.length,
    };
  } finally {
    clearInterval(sampler);
    await bench.close();
  }
}

function section(results: Result[]): string {
  const rows = results.map((r) => {
    const seconds = r.importMs / 1000;
    const pgCpu =
      r.load === undefined
        ? '-'
        : f2((r.load.postgres * seconds * 1000 * os.availableParallelism()) / r.rows);
    return `| ${r.backend} | ${f0(r.rows)} | ${f0(r.sheetBytes / 1024)} | ${f0(r.uploadMs)} | ${f1(seconds)} | ${f0(r.rows / seconds)} | ${f2(r.nodeCpuMs / r.rows)} | ${pgCpu} | ${f0(r.peakRssMb)} | ${f0(r.imported)} / ${f0(r.duplicates)} / ${f0(r.errors)} | ${r.load ? `${pct(r.load.machine)} / ${pct(r.load.other)}` : '-'} |`;
  });
  return [
    HEADING,
    '',
    'An .xlsx with a header row and N contact rows (2% broken numbers, 2% numbers repeated from the row before, a third with an e-mail) uploaded to `POST /api/contact-lists/:id/upload` through `app.inject`, then the import job drained (`app.jobs.drain()`): the sheet is read as a stream by exceljs and stored in chunks, progress emitted per chunk. *upload ms* is the time to the 202 answer (the file is stored and the job queued; nothing is parsed in the request); *import s* runs from the upload to the end of the job. *Node CPU* is this process (server and load generator); *Postgres CPU* the backends of the benchmark database. *peak RSS* is the largest resident size sampled every 50 ms above the size before the upload. The counts are checked against the sheet. *machine busy* is the share of all cores busy during the import, *other load* the part of it used by neither this process nor the benchmark database (other work on the machine).',
    '',
    'Run it (a fresh database is created on the server and dropped at the end; this section is rewritten unless `--no-write`):',
    '',
    ...commandBlock(
      [
        'npx tsx --conditions=source bench/imports/run.ts [--rows 50000] [--backends postgres,pglite] [--no-write]',
      ],
      false,
    ),
    '',
    `${lastRunLine()}.`,
    '',
    '| database | rows | sheet KiB | upload ms | import s | rows/s | Node CPU ms / row | Postgres CPU ms / row | peak RSS MiB | imported / duplicates / errors | machine busy / other load |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
  ].join('\n');
}

/** The console line of one backend's result (rows: the run's size). */
const summary =
  (rows: number) =>
  (backend: string, r: Result): string =>
    `${backend}: ${rows} rows, upload ${f0(r.uploadMs)} ms, import ${f1(r.importMs / 1000)} s = ${f0(rows / (r.importMs / 1000))} rows/s, Node CPU ${f2(r.nodeCpuMs / rows)} ms/row, peak RSS +${f0(r.peakRssMb)} MiB`;

async function main(): Promise<void> {
  const values = benchArgs({ rows: '50000', backends: 'postgres,pglite' }, ['no-write']);
  const rows = countOption('rows', values.rows, 100, 100_000);
  const results = await runPerBackend(values.backends, (backend) => run(backend, rows), summary(rows));
  const text = section(results);
  writeOrPrint(!values['no-write'], HEADING, text);
}

runBench(main);
