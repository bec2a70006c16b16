import { z } from 'zod';

/** Plan (document 3 section 3). `value` is the monthly price in BRL. */
export const ZPlan = z.object({
  id: z.number(),
  name: z.string(),
  value: z.number(),
  users: z.number(),
  connections: z.number(),
  queues: z.number(),
  useCampaigns: z.boolean(),
  useSchedules: z.boolean(),
  useInternalChat: z.boolean(),
  useExternalApi: z.boolean(),
  useKanban: z.boolean(),
  useOpenAi: z.boolean(),
  useIntegrations: z.boolean(),
});
export type Plan = z.infer<typeof ZPlan>;

/** GET /companies/listPlan/:companyId answer. */
export const ZListPlanResponse = z.object({ id: z.number(), dueDate: z.string().nullable(), plan: ZPlan });
export type ListPlanResponse = z.infer<typeof ZListPlanResponse>;
