/**
 * Web-only settings that are not part of the shared contract.
 * `VITE_OTHER_SERVICES_URL` overrides the page the top bar's other-services button opens.
 */
export const OTHER_SERVICES_URL: string =
  (import.meta.env.VITE_OTHER_SERVICES_URL as string | undefined) ?? 'https://zapdesk.example.com/servicos';

/** Base path of every API call (the dev server proxies it to the Zapdesk server). */
export const API_BASE = '/api';
