/**
 * Column groups shared by the tables, spread or called into each `pgTable` so that one kind of
 * column is written one way. Every helper returns a fresh builder: a builder is never shared by
 * two tables. Columns are named by their keys (snake_case, see drizzle.config.ts).
 */
import { type AnyPgColumn, integer, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** The row id: `serial primary key`. */
export const idColumn = () => serial().primaryKey();

/** A point in time: `timestamp with time zone`, nullable unless chained with `.notNull()`. */
export const timestamptz = () => timestamp({ withTimezone: true });

/** When the row was written: timestamptz, not null, default now(). For rows never updated. */
export const createdAtColumn = () => timestamptz().notNull().defaultNow();

/** createdAt and updatedAt (timestamptz, not null, default now()) for every table rows change in. */
export const timestamps = {
  createdAt: timestamptz().notNull().defaultNow(),
  updatedAt: timestamptz().notNull().defaultNow(),
};

/**
 * A required reference to the row this one belongs to (integer, not null): deleted with it.
 * `target` returns the referenced column, e.g. `() => tickets.id`.
 */
export const parentRef = (target: () => AnyPgColumn) =>
  integer().notNull().references(target, { onDelete: 'cascade' });

/** An optional reference (nullable integer): set to null when the referenced row is deleted. */
export const optionalRef = (target: () => AnyPgColumn) =>
  integer().references(target, { onDelete: 'set null' });

/**
 * The key of a table that extends another one row for row: primary key and a reference to
 * `target`, deleted with the referenced row.
 */
export const extensionKey = (target: () => AnyPgColumn) =>
  integer().primaryKey().references(target, { onDelete: 'cascade' });

/** An attached file: its media store name (`mediaPath`) and its original name, both nullable. */
export const mediaColumns = () => ({ mediaPath: text(), mediaName: text() });
