/**
 * Private routes of the route table (core section 2, document 3) whose pages are not built yet: each
 * shows a 'coming soon' page with its title. `gate` limits the flow routes as the menu does.
 */
export interface PlaceholderRoute {
  path: string;
  titleKey: string;
  gate?: 'flows';
}

export const PLACEHOLDER_ROUTES: PlaceholderRoute[] = [];
