import type { PlanFlag, Profile } from './permissions.js';

/**
 * The feature map of the classic web client's fork (docs/compatibility.md, "Feature map"): that
 * client gates its pages on dotted keys (`dashboard.main`, `team.queues`, ...) that its backend adds
 * to `GET /companies/listPlan/:id` (`effectiveFeatures`, `effectiveModules`) and to the session user
 * (`effectiveUserFeatures`). Zapdesk derives them from what it really serves: a key is on when the
 * area exists here and its plan flag (if any) is on, and, for the user's map, when the user's profile
 * may use the area's routes. Areas Zapdesk does not have stay off, so the client hides them instead
 * of calling routes that do not exist.
 */
interface ClassicArea {
  /** The plan flag that gates the area's routes, when one does. */
  flag?: PlanFlag;
  /** Whether Zapdesk serves this area at all. */
  served: boolean;
  /** Whether the area's routes need the admin profile. */
  admin?: boolean;
}

/** Every key the classic client reads, with what it means in Zapdesk. */
const CLASSIC_AREAS = {
  'dashboard.main': { served: true, admin: true },
  // The client's /relatorios, /agenda (appointments), /avaliacao (user ratings), /group-manager and
  // /crm pages call APIs Zapdesk does not have.
  'dashboard.reports': { served: false },
  'attendance.inbox': { served: true },
  'attendance.kanban': { served: true, flag: 'useKanban' },
  'attendance.schedules': { served: true, flag: 'useSchedules' },
  'attendance.internal_chat': { served: true, flag: 'useInternalChat' },
  // Flows and their phrase campaigns are gated by the campaigns flag (document 3 Plan entity).
  'automation.chatbot': { served: true, flag: 'useCampaigns' },
  'automation.keywords': { served: true, flag: 'useCampaigns' },
  'automation.openai': { served: true, flag: 'useOpenAi' },
  'automation.integrations': { served: true, flag: 'useIntegrations' },
  'automation.quick_replies': { served: true },
  'agenda.calendar': { served: false },
  'agenda.appointments': { served: true, flag: 'useSchedules' },
  'team.users': { served: true, admin: true },
  'team.queues': { served: true, admin: true },
  'team.groups': { served: false },
  'team.ratings': { served: false },
  'finance.subscription': { served: true, admin: true },
  'finance.invoices': { served: true, admin: true },
  'campaigns.sends': { served: true, flag: 'useCampaigns' },
  'campaigns.lists': { served: true, flag: 'useCampaigns', admin: true },
  'contacts.tags': { served: true },
  'contacts.files': { served: true },
  'crm.pipeline': { served: false },
  'settings.connections': { served: true },
  'settings.api': { served: true, flag: 'useExternalApi' },
} as const satisfies Record<string, ClassicArea>;

/** A key of the classic client's feature map. */
export type ClassicFeature = keyof typeof CLASSIC_AREAS;
/** Every key the classic client reads, in a stable order. */
export const CLASSIC_FEATURES = Object.keys(CLASSIC_AREAS) as ClassicFeature[];

/** The plan flags the map is derived from (a plan row, or null for a company without plan). */
export type ClassicPlanFlags = Record<PlanFlag, boolean>;

/**
 * The classic client's `effectiveModules`: its module toggles, from the plan flags. Flows
 * (`useFlowbuilders`) follow the campaigns flag as they do in Zapdesk; WhatsApp group management
 * (`useGroups`) is not served.
 */
export function classicModules(plan: ClassicPlanFlags | null) {
  const on = (flag: PlanFlag) => plan?.[flag] === true;
  return {
    useCampaigns: on('useCampaigns'),
    useFlowbuilders: on('useCampaigns'),
    useKanban: on('useKanban'),
    useOpenAi: on('useOpenAi'),
    useIntegrations: on('useIntegrations'),
    useSchedules: on('useSchedules'),
    useExternalApi: on('useExternalApi'),
    useGroups: false,
    useInternalChat: on('useInternalChat'),
  };
}

/**
 * The classic client's feature map. Without `profile`, the company's (`effectiveFeatures`: what the
 * plan allows); with it, the user's (`effectiveUserFeatures`: the plan's map, less the admin areas
 * for a `user` profile). A company without plan gets every key off.
 */
export function classicFeatureMap(
  plan: ClassicPlanFlags | null,
  profile?: Profile,
): Record<ClassicFeature, boolean> {
  const map = {} as Record<ClassicFeature, boolean>;
  for (const key of CLASSIC_FEATURES) {
    const area: ClassicArea = CLASSIC_AREAS[key];
    map[key] =
      plan !== null &&
      area.served &&
      (area.flag === undefined || plan[area.flag] === true) &&
      !(area.admin && profile === 'user');
  }
  return map;
}
