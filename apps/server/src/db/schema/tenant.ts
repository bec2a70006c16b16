/**
 * Tenant tables: the rows a company owns. Each carries its own `id` and the `companyId` every query
 * of a company filters on; deleting the company deletes them.
 */
import type { BuildExtraConfigColumns } from 'drizzle-orm';
import { type PgColumnBuilderBase, type PgTableExtraConfigValue, pgTable } from 'drizzle-orm/pg-core';
import { idColumn, parentRef } from './columns.js';
import { companies } from './companies.js';

/** The tenant column of a company's table: `companyId` → companies.id, deleted with the company. */
export const companyRef = () => parentRef(() => companies.id);

/** The leading columns of a company's table: `id` (serial primary key), then `companyId`. */
const companyKeys = () => ({ id: idColumn(), companyId: companyRef() });
type CompanyKeys = ReturnType<typeof companyKeys>;

/**
 * A company's table: `pgTable(name, columns, extraConfig)` with `id` and `companyId` placed before
 * `columns`. `extraConfig` (indexes, checks) sees those two columns as well.
 */
export function companyTable<TName extends string, TColumns extends Record<string, PgColumnBuilderBase>>(
  name: TName,
  columns: TColumns,
  extraConfig?: (
    self: BuildExtraConfigColumns<TName, CompanyKeys & TColumns, 'pg'>,
  ) => PgTableExtraConfigValue[],
) {
  const all: CompanyKeys & TColumns = { ...companyKeys(), ...columns };
  return pgTable<TName, CompanyKeys & TColumns>(name, all, extraConfig);
}
