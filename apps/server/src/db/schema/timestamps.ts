import { timestamp } from 'drizzle-orm/pg-core';

/** createdAt and updatedAt (timestamptz, default now) for every table. */
export const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
};
