import { sql } from 'drizzle-orm';
import type { Tx } from './client.js';

/**
 * The companies whose tickets among `ticketIds` have service-level targets still without a due time
 * (rows the `ticket_slas` triggers wrote when those tickets opened, reopened or changed queue),
 * read in `tx` so a caller can queue the `sla-plan` job in the same transaction (decision 0124).
 * One indexed statement (the targets' `(ticket_id, opened_at, target)` key); no ids, no statement.
 * @returns distinct company ids, ascending; empty when nothing waits to be planned.
 */
export async function companiesToPlan(tx: Tx, ticketIds: readonly number[]): Promise<number[]> {
  if (ticketIds.length === 0) return [];
  const ids = `{${[...new Set(ticketIds)].join(',')}}`;
  const { rows } = await tx.execute<{ company_id: number }>(
    sql`select distinct company_id from ticket_slas
      where ticket_id = any(${ids}::int[]) and due_at is null order by 1`,
  );
  return rows.map((row) => Number(row.company_id));
}
