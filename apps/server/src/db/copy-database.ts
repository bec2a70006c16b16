import { type DatabaseHandle, transactionExecutor } from './client.js';

/** Rows read and written per statement while copying a table. */
const BATCH_ROWS = 2000;

/** A table to copy, schema-qualified. */
export interface TableRef {
  schema: string;
  name: string;
}

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;
const qualified = (table: TableRef) => `${quote(table.schema)}.${quote(table.name)}`;

/** The application's tables (schema `public`) of a database, by name. */
export async function applicationTables(database: DatabaseHandle): Promise<TableRef[]> {
  const { rows } = await database.executor.executeSql(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name",
  );
  return rows.map((row) => ({ schema: 'public', name: String(row.name) }));
}

/** The tables among `tables` that hold at least one row in `database`. */
export async function nonEmptyTables(database: DatabaseHandle, tables: TableRef[]): Promise<TableRef[]> {
  const found: TableRef[] = [];
  for (const table of tables) {
    const { rows } = await database.executor.executeSql(
      `select exists (select 1 from ${qualified(table)}) as any`,
    );
    if (rows[0]?.any) found.push(table);
  }
  return found;
}

/** The columns of a table that take written values (not generated), in order. */
async function writableColumns(database: DatabaseHandle, table: TableRef): Promise<string[]> {
  const { rows } = await database.executor.executeSql(
    "select column_name as name from information_schema.columns where table_schema = $1 and table_name = $2 and is_generated = 'NEVER' order by ordinal_position",
    [table.schema, table.name],
  );
  return rows.map((row) => String(row.name));
}

/**
 * Copies the rows of `tables` from `source` into the same, already created and empty, tables of
 * `target` (any Postgres versions: rows travel as JSON), in one transaction of the target with
 * triggers and foreign-key checks off (`session_replication_role = replica`, which needs a superuser
 * or the provider's equivalent role), keeping ids (`overriding system value`), then moves every
 * serial or identity sequence past the copied ids. Rows already in the target (same key) are left.
 * @returns the rows copied per table ('schema.name').
 * @throws what the target refuses; the target is then left as it was.
 */
export async function copyTables(
  source: DatabaseHandle,
  target: DatabaseHandle,
  tables: TableRef[],
  onTable: (table: string, rows: number) => void = () => {},
): Promise<Record<string, number>> {
  const copied: Record<string, number> = {};
  await target.db.transaction(async (tx) => {
    const executor = transactionExecutor(tx);
    const run = (text: string, values?: unknown[]) => executor.executeSql(text, values);
    await run('set local session_replication_role = replica');
    for (const table of tables) {
      const targetColumns = new Set(await writableColumns(target, table));
      const columns = (await writableColumns(source, table)).filter((name) => targetColumns.has(name));
      const list = columns.map(quote).join(', ');
      let count = 0;
      for (let offset = 0; ; offset += BATCH_ROWS) {
        const { rows } = await source.executor.executeSql(
          `select coalesce(json_agg(row_to_json(t)), '[]')::text as batch from (select ${list} from ${qualified(table)} order by tableoid, ctid limit ${BATCH_ROWS} offset ${offset}) t`,
        );
        const batch = String(rows[0]?.batch ?? '[]');
        if (batch === '[]') break;
        await run(
          `insert into ${qualified(table)} (${list}) overriding system value select ${list} from json_populate_recordset(null::${qualified(table)}, $1::json) on conflict do nothing`,
          [batch],
        );
        count += (JSON.parse(batch) as unknown[]).length;
      }
      copied[`${table.schema}.${table.name}`] = count;
      onTable(`${table.schema}.${table.name}`, count);
    }
    const { rows: sequences } = await run(
      `select table_schema as schema, table_name as name, column_name as column from information_schema.columns
        where table_schema = any($1) and (column_default like 'nextval(%' or is_identity = 'YES')`,
      [[...new Set(tables.map((table) => table.schema))]],
    );
    for (const row of sequences) {
      const [schema, name, column] = [String(row.schema), String(row.name), String(row.column)];
      if (!tables.some((table) => table.schema === schema && table.name === name)) continue;
      const ref = qualified({ schema, name });
      await run(
        `select setval(pg_get_serial_sequence($1, $2), coalesce((select max(${quote(column)}) from ${ref}), 0) + 1, false)`,
        [ref, column],
      );
    }
  });
  return copied;
}
