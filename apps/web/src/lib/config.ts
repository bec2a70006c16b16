/**
 * Web-only settings that are not part of the shared contract.
 * `VITE_OTHER_SERVICES_URL` overrides the page the top bar's other-services button opens.
 */
export const OTHER_SERVICES_URL: string =
  (import.meta.env.VITE_OTHER_SERVICES_URL as string | undefined) ?? 'https://zapdesk.example.com/servicos';

/**
 * Base path of every API call: the server names it in `<meta name="zapdesk-api-base">` of the
 * page it serves (its API_PREFIX, possibly empty); '/api' otherwise (the dev server proxies it).
 */
export const API_BASE: string =
  (typeof document === 'undefined'
    ? null
    : document.querySelector('meta[name="zapdesk-api-base"]')?.getAttribute('content')) ?? '/api';
