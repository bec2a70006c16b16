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
  useReports: z.boolean(),
});
export type Plan = z.infer<typeof ZPlan>;

/** The classic client's feature map (classic-features.ts): dotted key -> on. */
export const ZClassicFeatureMap = z.record(z.string(), z.boolean());

/**
 * GET /companies/listPlan/:companyId answer: the plan and due date, plus the classic client's
 * `effectiveFeatures` and `effectiveModules` derived from the plan's flags (docs/compatibility.md).
 */
export const ZListPlanResponse = z.object({
  id: z.number(),
  dueDate: z.string().nullable(),
  plan: ZPlan,
  effectiveFeatures: ZClassicFeatureMap,
  effectiveModules: z.record(z.string(), z.boolean()),
});
export type ListPlanResponse = z.infer<typeof ZListPlanResponse>;
