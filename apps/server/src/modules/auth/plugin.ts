import { defineModule } from '../module-plugin.js';
import { authRoutes } from './routes.js';
import { registerSubscriptionExpiry } from './subscription-expiry.js';

/**
 * Sign-in: login, token refresh, logout and the caller's profile; and the every-minute job that ends
 * the sessions of companies whose subscription expired.
 */
export const authModule = defineModule('auth', async (_app, { ctx, jobs, routes }) => {
  registerSubscriptionExpiry(ctx, jobs);
  routes((api) => authRoutes(api, ctx));
});
