import { FREE_TRIAL_PLAN_NAME } from '@zapdesk/shared';
import { count, eq, sql } from 'drizzle-orm';
import type { Config } from '../config.js';
import { hashPassword } from '../lib/password.js';
import type { Database, Tx } from './client.js';
import { insertCompany } from './company-rows.js';
import {
  companies,
  plans,
  queues,
  quickMessages,
  tags,
  userQueues,
  users,
  whatsappQueues,
  whatsapps,
} from './schema/index.js';

const ALL_FLAGS = {
  useCampaigns: true,
  useSchedules: true,
  useInternalChat: true,
  useExternalApi: true,
  useKanban: true,
  useOpenAi: true,
  useIntegrations: true,
  useReports: true,
};

/** The plans every new installation starts with (names are the ones the UI shows). */
export const DEFAULT_PLANS: (typeof plans.$inferInsert)[] = [
  { name: FREE_TRIAL_PLAN_NAME, value: 0, users: 3, connections: 1, queues: 3, ...ALL_FLAGS },
  {
    name: 'Básico',
    value: 99.9,
    users: 5,
    connections: 1,
    queues: 3,
    ...ALL_FLAGS,
    useCampaigns: false,
    useOpenAi: false,
    useIntegrations: false,
    useExternalApi: false,
    useReports: false,
  },
  { name: 'Completo', value: 199.9, users: 30, connections: 5, queues: 30, ...ALL_FLAGS },
];

/** Inserts the default plans that are missing (by name). */
export async function seedPlans(db: Database): Promise<void> {
  await db.insert(plans).values(DEFAULT_PLANS).onConflictDoNothing({ target: plans.name });
}

export const DEMO = {
  companyName: 'Zapdesk Demo',
  admin: { name: 'Admin', email: 'admin@zapdesk.local', password: 'demo-admin' },
  agent: { name: 'Agente', email: 'agent@zapdesk.local', password: 'demo-agent' },
  queue: { name: 'Suporte', color: '#2576D2' },
  simulator: 'Simulador',
  secondQueue: { name: 'Vendas', color: '#7B1FA2' },
  tags: [
    { name: 'VIP', color: '#E53935', kanban: 1 },
    { name: 'Novo cliente', color: '#43A047', kanban: 1 },
  ],
  quickMessages: [
    { shortcode: 'ola', message: 'Olá! Em que posso ajudar?' },
    { shortcode: 'obrigado', message: 'Obrigado pelo contato! Qualquer dúvida, estamos à disposição.' },
  ],
} as const;

/**
 * Demo data for the embedded default: plans, the company
 * 'Zapdesk Demo' on the full plan for a year, its admin (also the super user), an agent in the
 * queue 'Suporte' (and a queue 'Vendas'), the default simulator connection 'Simulador', two tags,
 * two quick replies and default settings. Runs only when there is no company yet; returns whether it
 * seeded.
 */
export async function seedDemo(db: Database): Promise<boolean> {
  const [existing] = await db.select({ value: count() }).from(companies);
  if ((existing?.value ?? 0) > 0) return false;
  await seedPlans(db);
  const [full] = await db.select({ id: plans.id }).from(plans).where(eq(plans.name, 'Completo'));
  const [adminHash, agentHash] = await Promise.all([
    hashPassword(DEMO.admin.password),
    hashPassword(DEMO.agent.password),
  ]);
  await db.transaction(async (tx) => {
    const companyId = await insertCompany(tx, {
      name: DEMO.companyName,
      email: DEMO.admin.email,
      planId: full?.id ?? null,
      dueDate: new Date(Date.now() + 365 * 86_400_000),
      recurrence: 'ANUAL',
      campaignsEnabled: true,
    });
    const [queue] = await tx
      .insert(queues)
      .values({ companyId, ...DEMO.queue, orderQueue: 1, greetingMessage: 'Olá! Em que podemos ajudar?' })
      .returning({ id: queues.id });
    await tx.insert(users).values({
      companyId,
      name: DEMO.admin.name,
      email: DEMO.admin.email,
      passwordHash: adminHash,
      profile: 'admin',
      super: true,
      allTicket: 'enabled',
    });
    const [agent] = await tx
      .insert(users)
      .values({
        companyId,
        name: DEMO.agent.name,
        email: DEMO.agent.email,
        passwordHash: agentHash,
        profile: 'user',
      })
      .returning({ id: users.id });
    await tx.insert(userQueues).values({ companyId, userId: agent!.id, queueId: queue!.id });
    // The simulator connection: started with the server, pairs by itself (status OPENING until then).
    const [simulator] = await tx
      .insert(whatsapps)
      .values({
        companyId,
        name: DEMO.simulator,
        provider: 'simulator',
        isDefault: true,
        status: 'OPENING',
        greetingMessage: 'Olá! Bem-vindo à Zapdesk Demo.',
      })
      .returning({ id: whatsapps.id });
    await tx.insert(whatsappQueues).values({ companyId, whatsappId: simulator!.id, queueId: queue!.id });
    await tx.insert(queues).values({ companyId, ...DEMO.secondQueue, orderQueue: 2 });
    await tx.insert(tags).values(DEMO.tags.map((tag) => ({ companyId, ...tag })));
    await tx
      .insert(quickMessages)
      .values(DEMO.quickMessages.map((quick) => ({ companyId, ...quick, geral: true })));
  });
  return true;
}

/** The advisory lock (a bigint) taken while the first super user is created. */
const FIRST_SUPER_USER_LOCK = '7270617064657302';

/**
 * Production start: creates the first super user from ADMIN_EMAIL/ADMIN_PASSWORD (in a company of
 * its own with no due date) when no super user exists. Nothing else is seeded.
 */
export async function ensureSuperUser(db: Database, config: Config): Promise<boolean> {
  if (!config.ADMIN_EMAIL || !config.ADMIN_PASSWORD) return false;
  const superUsers = async (tx: Tx) =>
    (await tx.select({ value: count() }).from(users).where(eq(users.super, true)))[0]?.value ?? 0;
  if ((await superUsers(db)) > 0) return false;
  const passwordHash = await hashPassword(config.ADMIN_PASSWORD);
  return db.transaction(async (tx) => {
    // Nodes starting together on an empty database: one creates the super user, the others find it.
    await tx.execute(sql`select pg_advisory_xact_lock(${FIRST_SUPER_USER_LOCK})`);
    if ((await superUsers(tx)) > 0) return false;
    const companyId = await insertCompany(tx, {
      name: 'Zapdesk',
      planId: null,
      dueDate: null,
      recurrence: null,
    });
    await tx.insert(users).values({
      companyId,
      name: 'Super',
      email: config.ADMIN_EMAIL!.toLowerCase(),
      passwordHash,
      profile: 'admin',
      super: true,
      allTicket: 'enabled',
      updatedAt: sql`now()`,
    });
    return true;
  });
}
