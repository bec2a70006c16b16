/** Demo credentials seeded on the embedded default (apps/server/src/db/seed.ts). */
export const DEMO_ADMIN = { email: 'admin@zapdesk.local', password: 'demo-admin' };
export const DEMO_AGENT = { email: 'agent@zapdesk.local', password: 'demo-agent' };
