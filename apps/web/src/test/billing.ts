/** Test data shared by the billing tests. */
import type { ListPlanResponse, Plan } from '@zapdesk/shared';

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
