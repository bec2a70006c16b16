import { getTableColumns, type Table } from 'drizzle-orm';

/**
 * The columns of `table` named in `names`, keyed by their names: the shape `select` and `returning`
 * take, so a service lists what it reads in one line. Unknown names are a type error.
 */
export function pickColumns<T extends Table, K extends keyof T['_']['columns'] & string>(
  table: T,
  names: readonly K[],
): Pick<T['_']['columns'], K> {
  const all = getTableColumns(table) as T['_']['columns'];
  return Object.fromEntries(names.map((name) => [name, all[name]])) as Pick<T['_']['columns'], K>;
}
