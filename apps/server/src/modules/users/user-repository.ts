import type { PublicUser, QueueRef } from '@zapdesk/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { companies, users } from '../../db/schema/index.js';

/** The queues of `users.id` as a JSON array, ordered by name: one subquery, no query per row. */
export const queuesJson = sql<QueueRef[]>`coalesce((
  select json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) order by q.name)
  from user_queues uq join queues q on q.id = uq.queue_id
  where uq.user_id = "users"."id"), '[]'::json)`;

export const publicUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  profile: users.profile,
  super: users.super,
  online: users.online,
  allTicket: users.allTicket,
  whatsappId: users.whatsappId,
  language: users.language,
  maxOpenTickets: users.maxOpenTickets,
  availability: users.availability,
  companyId: users.companyId,
  phone: users.phone,
  cnpjCpf: users.cnpjCpf,
  address: users.address,
  city: users.city,
  state: users.state,
  zipcode: users.zipcode,
  country: users.country,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
  queues: queuesJson,
  companyDueDate: companies.dueDate,
};

type PublicUserRow = Omit<PublicUser, 'createdAt' | 'updatedAt' | 'company'> & {
  createdAt: Date;
  updatedAt: Date;
  companyDueDate: Date | null;
};

/** Converts a selected row to the API shape (dates as ISO strings, `company{dueDate}` nested). */
export function toPublicUser({ companyDueDate, ...row }: PublicUserRow): PublicUser {
  return {
    ...row,
    company: { dueDate: companyDueDate?.toISOString() ?? null },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Loads one user of `companyId` in the API shape, or undefined (other companies' users are invisible). */
export async function findPublicUser(
  db: Tx,
  companyId: number,
  userId: number,
): Promise<PublicUser | undefined> {
  const [row] = await db
    .select(publicUserColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(users.companyId, companyId), eq(users.id, userId)))
    .limit(1);
  return row ? toPublicUser(row) : undefined;
}

/** Selects users in the API shape (company due date joined) with an extra condition, e.g. for pages. */
export function selectPublicUsers(db: Tx, where: SQL | undefined) {
  return db
    .select(publicUserColumns)
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(where);
}

/**
 * Marks a user of `companyId` online (the socket heartbeat, core section 9); a no-op when already
 * online, so a heartbeat writes nothing in the steady state.
 */
export async function markOnline(ctx: { db: Tx }, companyId: number, userId: number): Promise<void> {
  await ctx.db
    .update(users)
    .set({ online: true })
    .where(and(eq(users.companyId, companyId), eq(users.id, userId), eq(users.online, false)));
}
