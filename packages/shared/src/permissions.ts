/**
 * Role rules (core document section 6). A profile's static permissions; admins may everything listed.
 */
export type Profile = 'admin' | 'user';

export const PERMISSIONS = [
  'dashboard:view',
  'drawer-admin-items:view',
  'tickets-manager:showall',
  'tickets-manager:peek',
  'ticket-search:usersFilter',
  'topbar:plans',
  'user-modal:editProfile',
  'user-modal:editQueues',
  'ticket-options:deleteTicket',
  'contacts-page:deleteContact',
  'connections-page:addConnection',
  'connections-page:actionButtons',
  'connections-page:editOrDeleteConnection',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const RULES: Record<Profile, readonly Permission[]> = {
  user: [],
  admin: PERMISSIONS,
};

/** True when `profile` holds `permission`. */
export function can(profile: Profile | undefined, permission: Permission): boolean {
  return profile ? RULES[profile].includes(permission) : false;
}

/** Plan feature flags (document 3 Plan entity) that gate menu items and routes. */
export const PLAN_FLAGS = [
  'useCampaigns',
  'useSchedules',
  'useInternalChat',
  'useExternalApi',
  'useKanban',
  'useOpenAi',
  'useIntegrations',
  'useReports',
] as const;
export type PlanFlag = (typeof PLAN_FLAGS)[number];
