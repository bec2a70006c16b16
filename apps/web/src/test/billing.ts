/** Test data shared by the billing tests. */
import type { ListPlanResponse, Plan, PublicUser } from '@zapdesk/shared';
import { createUser } from './fixtures';
import { json } from './http';

const plan = (id: number, name: string, value: number): Plan => ({
  id,
  name,
  value,
  users: 5,
  connections: 2,
  queues: 3,
  useCampaigns: true,
  useSchedules: false,
  useInternalChat: true,
  useExternalApi: false,
  useKanban: true,
  useOpenAi: false,
  useIntegrations: false,
  useReports: false,
});

/** The plans the billing pages offer: a free trial (1), a basic (2) and a full one (3). */
export const BILLING_PLANS = [
  plan(1, 'Teste Gratis', 0),
  plan(2, 'Básico', 99.9),
  plan(3, 'Completo', 199.9),
];

/** GET /companies/listPlan answer of company 1 on `plan` (due date in the future unless given). */
export const listPlan = (
  plan: Plan,
  dueDate: string | null = '2030-12-31T00:00:00.000Z',
): ListPlanResponse => ({ id: 1, dueDate, plan, effectiveFeatures: {}, effectiveModules: {} });

/**
 * The answers of GET and PUT /users/{id} for the billing dialog: the signed-in user with `saved`
 * billing fields (none by default); a PUT answers what it was sent. Undefined for other URLs.
 */
export function answerUser(
  url: string,
  init: RequestInit | undefined,
  saved: Partial<PublicUser> = {},
): Response | undefined {
  const match = /^\/api\/users\/(\d+)$/.exec(url);
  if (!match) return undefined;
  const user = createUser({ id: Number(match[1]), ...saved });
  const body = init?.method === 'PUT' ? JSON.parse(String(init.body)) : {};
  return json(200, { ...user, ...body });
}
