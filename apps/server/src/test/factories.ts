import crypto from 'node:crypto';
import { type NormalizedMessage, PLAN_FLAGS } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companies, plans, queues, refreshTokens, userQueues, users } from '../db/schema/index.js';
import { hashRefreshToken, newRefreshToken, signAccessToken } from '../modules/auth/tokens.js';
import { insertCompany } from '../modules/companies/companies-service.js';
import { hashPassword } from '../modules/users/users-service.js';

let passwordHash: Promise<string> | undefined;
/** Password of every factory user. */
export const TEST_PASSWORD = 'secret-123';
let sequence = 0;
const unique = () => `${process.pid}-${Date.now().toString(36)}-${++sequence}`;

export interface TestUser {
  id: number;
  companyId: number;
  email: string;
  profile: 'admin' | 'user';
  super: boolean;
  token: string;
}

/** Creates a company (full plan by default, due in 30 days unless `dueDate` is given). */
export async function createCompany(
  app: FastifyInstance,
  options: { dueDate?: Date | null; planName?: string; plan?: Partial<typeof plans.$inferInsert> } = {},
): Promise<number> {
  const db = app.ctx.db;
  let planId: number | null;
  if (options.plan) {
    const [row] = await db
      .insert(plans)
      .values({ name: `plan-${unique()}`, ...options.plan })
      .returning({ id: plans.id });
    planId = row!.id;
  } else {
    const [row] = await db
      .select({ id: plans.id })
      .from(plans)
      .where(eq(plans.name, options.planName ?? 'Completo'));
    planId = row?.id ?? null;
  }
  return insertCompany(db, {
    name: `Company ${unique()}`,
    planId,
    dueDate: options.dueDate === undefined ? new Date(Date.now() + 30 * 86_400_000) : options.dueDate,
    recurrence: 'MENSAL',
  });
}

/** Creates a user and signs an access token for it (no login round trip). */
export async function createUser(
  app: FastifyInstance,
  companyId: number,
  options: {
    profile?: 'admin' | 'user';
    super?: boolean;
    name?: string;
    email?: string;
    queueIds?: number[];
  } = {},
): Promise<TestUser> {
  passwordHash ??= hashPassword(TEST_PASSWORD);
  const email = options.email ?? `user-${unique()}@example.test`;
  const [row] = await app.ctx.db
    .insert(users)
    .values({
      companyId,
      name: options.name ?? `User ${unique()}`,
      email,
      passwordHash: await passwordHash,
      profile: options.profile ?? 'user',
      super: options.super ?? false,
    })
    .returning({ id: users.id });
  for (const queueId of options.queueIds ?? []) {
    await app.ctx.db.insert(userQueues).values({ companyId, userId: row!.id, queueId });
  }
  const user = {
    id: row!.id,
    companyId,
    email,
    profile: options.profile ?? 'user',
    super: options.super ?? false,
  };
  return { ...user, token: await tokenFor(app, user) };
}

/**
 * Signs an access token as login would, for a fresh session (a refresh-token family stored like a
 * sign-in's, so the guard finds it alive).
 */
export async function tokenFor(
  app: FastifyInstance,
  user: { id: number; companyId: number; profile: 'admin' | 'user'; super: boolean },
  ttlSeconds = 900,
): Promise<string> {
  const sessionId = crypto.randomUUID();
  await app.ctx.db.insert(refreshTokens).values({
    companyId: user.companyId,
    userId: user.id,
    familyId: sessionId,
    tokenHash: hashRefreshToken(newRefreshToken()),
    expiresAt: new Date(Date.now() + app.ctx.config.REFRESH_TOKEN_TTL * 1000),
  });
  return signAccessToken(
    {
      userId: user.id,
      companyId: user.companyId,
      profile: user.profile,
      super: user.super,
      sessionId,
    },
    app.ctx.secrets.jwtSecret,
    ttlSeconds,
  );
}

/** Creates a queue in the company. */
export async function createQueue(
  app: FastifyInstance,
  companyId: number,
  name = `Queue ${unique()}`,
): Promise<number> {
  const color = `#${crypto.randomBytes(3).toString('hex')}`;
  const [row] = await app.ctx.db
    .insert(queues)
    .values({ companyId, name, color })
    .returning({ id: queues.id });
  return row!.id;
}

/** One company with an admin, an agent (in one queue) and that queue. */
export interface TenantFixture {
  companyId: number;
  admin: TestUser;
  agent: TestUser;
  queueId: number;
}

export async function createTenant(app: FastifyInstance): Promise<TenantFixture> {
  const companyId = await createCompany(app);
  const queueId = await createQueue(app, companyId);
  const admin = await createUser(app, companyId, { profile: 'admin' });
  const agent = await createUser(app, companyId, { profile: 'user', queueIds: [queueId] });
  return { companyId, admin, agent, queueId };
}

/** Two companies, A and B, for cross-company tests. */
export async function createTenantPair(
  app: FastifyInstance,
): Promise<{ a: TenantFixture; b: TenantFixture }> {
  return { a: await createTenant(app), b: await createTenant(app) };
}

/** A company (createTenant) with one simulator connection made by its admin: `whatsappId`. */
export type ConnectedTenant = TenantFixture & { whatsappId: number };

/** Creates a ConnectedTenant. */
export async function createConnectedTenant(app: FastifyInstance): Promise<ConnectedTenant> {
  const tenant = await createTenant(app);
  return { ...tenant, whatsappId: await createSimulatorConnection(app, tenant.admin) };
}

/**
 * A new company (createCompany with `options`: plan flags, due date) and its admin, the usual
 * caller of a plan-gated or due-date test. The admin's `companyId` names the company.
 */
export async function createCompanyAdmin(
  app: FastifyInstance,
  options: Parameters<typeof createCompany>[1] = {},
): Promise<TestUser> {
  return createUser(app, await createCompany(app, options), { profile: 'admin' });
}

/** A super user (admin profile, `super`) in a company of its own. */
export async function createSuperUser(app: FastifyInstance): Promise<TestUser> {
  return createUser(app, await createCompany(app), { profile: 'admin', super: true });
}

/** `Authorization` header for a user. */
export const bearer = (user: { token: string }) => ({ authorization: `Bearer ${user.token}` });

/**
 * Moves a company to a new plan whose flags are all off (what a super user's downgrade to the
 * most restricted plan does). Work queued before keeps its rows and jobs.
 */
export async function downgradeToNoFlags(app: FastifyInstance, companyId: number): Promise<void> {
  const flags = Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false]));
  const [plan] = await app.ctx.db
    .insert(plans)
    .values({ name: `plan-${unique()}`, ...flags })
    .returning({ id: plans.id });
  await app.ctx.db.update(companies).set({ planId: plan!.id }).where(eq(companies.id, companyId));
}

/** Sets a company's due date. */
export async function setDueDate(
  app: FastifyInstance,
  companyId: number,
  dueDate: Date | null,
): Promise<void> {
  await app.ctx.db.update(companies).set({ dueDate }).where(eq(companies.id, companyId));
}

/** Creates a simulator connection through the API (its session starts and pairs at once in tests). */
export async function createSimulatorConnection(
  app: FastifyInstance,
  admin: TestUser,
  name = `Sim ${unique()}`,
): Promise<number> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/whatsapp',
    headers: bearer(admin),
    payload: { name, provider: 'simulator' },
  });
  if (res.statusCode !== 201) throw new Error(`connection: ${res.statusCode} ${res.body}`);
  return res.json().id as number;
}

/** Injects a customer message through the simulator route; answers the stored message and ticket ids. */
export async function injectMessage(
  app: FastifyInstance,
  admin: TestUser,
  whatsappId: number,
  payload: {
    from: string;
    body?: string;
    name?: string;
    mediaUrl?: string;
    mediaType?: string;
    quotedId?: string;
  },
): Promise<{ id: number; ticketId: number }> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/simulator/${whatsappId}/messages`,
    headers: bearer(admin),
    payload,
  });
  if (res.statusCode !== 201) throw new Error(`inject: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A fresh customer number. */
export const customerNumber = () =>
  `55119${String(Date.now() % 100000).padStart(5, '0')}${String(++sequence % 1000).padStart(3, '0')}`;

let providerSequence = 0;
/** A normalised inbound text message from `from` (a fresh provider id each call) for the pipeline. */
export function inboundMessage(
  from: string,
  body: string,
  extra: Partial<NormalizedMessage> = {},
): NormalizedMessage {
  return {
    providerId: `TEST${Date.now()}${++providerSequence}`,
    chatId: from,
    isGroup: false,
    fromMe: false,
    senderNumber: from,
    senderName: 'Cliente',
    body,
    mediaType: 'chat',
    timestamp: Date.now(),
    ...extra,
  };
}

/**
 * The usual `inject` of a module test: `method url` as `user` (its bearer token) with an optional JSON
 * payload, on the app `app()` returns when called (so it can be set in `beforeAll`).
 */
export const injectAs =
  (app: () => FastifyInstance) =>
  (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: { token: string }, payload?: object) =>
    app().inject({ method, url, headers: bearer(user), payload });

/**
 * Logs in through `POST /api/auth/login` with `email` and `password` (the factories' one by
 * default), from `remoteAddress` when given; the raw response (200 with the token, or the refusal).
 */
export const login = (
  app: FastifyInstance,
  email: string,
  password = TEST_PASSWORD,
  remoteAddress?: string,
) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    ...(remoteAddress ? { remoteAddress } : {}),
  });
