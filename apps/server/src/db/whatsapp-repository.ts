import type { ConnectionState, Provider, QueueRef, Whatsapp } from '@zapdesk/shared';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from './client.js';
import { whatsapps } from './schema/index.js';

/** The connection's queues as a JSON array (one subquery, no query per row). */
const queuesJson = sql<QueueRef[]>`coalesce((
  select json_agg(json_build_object('id', q.id, 'name', q.name, 'color', q.color) order by q.name)
  from whatsapp_queues wq join queues q on q.id = wq.queue_id
  where wq.whatsapp_id = "whatsapps"."id"), '[]'::json)`;

/** Converts a row (with its queues) to the API shape (document 2 section 3). */
export function toWhatsapp(row: typeof whatsapps.$inferSelect & { queues: QueueRef[] }): Whatsapp {
  return {
    ...row,
    status: row.status as ConnectionState,
    provider: row.provider as Provider,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Connections of a company matching `where`, ordered by name, in the API shape. */
export async function selectWhatsapps(db: Tx, companyId: number, where?: SQL): Promise<Whatsapp[]> {
  const rows = await db
    .select({ row: whatsapps, queues: queuesJson })
    .from(whatsapps)
    .where(and(eq(whatsapps.companyId, companyId), where))
    .orderBy(asc(whatsapps.name), asc(whatsapps.id));
  return rows.map(({ row, queues }) => toWhatsapp({ ...row, queues }));
}

/** One connection of the company, or undefined. */
export async function findWhatsapp(db: Tx, companyId: number, id: number): Promise<Whatsapp | undefined> {
  const [found] = await selectWhatsapps(db, companyId, eq(whatsapps.id, id));
  return found;
}
