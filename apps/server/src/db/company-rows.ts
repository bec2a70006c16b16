import { DEFAULT_SETTINGS, type Recurrence } from '@zapdesk/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from './client.js';
import { preparedPerHandle } from './prepared.js';
import { companies, settings } from './schema/index.js';

/** A company to insert: its identity, plan and due date (null: never due); status and campaigns default. */
export interface NewCompany {
  name: string;
  email?: string | null;
  phone?: string | null;
  planId: number | null;
  dueDate: Date | null;
  recurrence: Recurrence | null;
  status?: boolean;
  campaignsEnabled?: boolean;
}

/** Inserts a company with the default settings (document 2 section 9); returns its id. */
export async function insertCompany(tx: Tx, input: NewCompany): Promise<number> {
  const [row] = await tx
    .insert(companies)
    .values({ ...input, status: input.status ?? true, campaignsEnabled: input.campaignsEnabled ?? false })
    .returning({ id: companies.id });
  const companyId = row!.id;
  await tx
    .insert(settings)
    .values(Object.entries(DEFAULT_SETTINGS).map(([key, value]) => ({ companyId, key, value })));
  return companyId;
}

/** Whether the company's setting `key` is 'enabled' (a missing row counts as not enabled). */
export async function settingEnabled(db: Tx, companyId: number, key: string): Promise<boolean> {
  const [row] = await settingStatement(db).execute({ companyId, key });
  return row?.value === 'enabled';
}
const settingStatement = preparedPerHandle((db) =>
  db
    .select({ value: settings.value })
    .from(settings)
    .where(
      and(eq(settings.companyId, sql.placeholder('companyId')), eq(settings.key, sql.placeholder('key'))),
    )
    .prepare('setting_value'),
);
