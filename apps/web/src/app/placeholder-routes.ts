/**
 * Private routes of the route table (core section 2, document 3) whose pages are not built yet: each
 * shows a 'coming soon' page with its title. `gate` limits the campaign and flow routes as the menu does.
 */
export interface PlaceholderRoute {
  path: string;
  titleKey: string;
  gate?: 'campaigns' | 'flows';
}

export const PLACEHOLDER_ROUTES: PlaceholderRoute[] = [
  { path: '/campaigns', titleKey: 'menu.campaignsList', gate: 'campaigns' },
  { path: '/campaign/:campaignId/report', titleKey: 'menu.campaignReport', gate: 'campaigns' },
  { path: '/campaigns-config', titleKey: 'menu.campaignsConfig', gate: 'campaigns' },
];
