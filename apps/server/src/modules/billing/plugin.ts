import { defineModule } from '../module-plugin.js';
import { billingRoutes } from './routes.js';

/** Invoices, the subscription checkout, billing settings and the payment provider's webhook. */
export const billingModule = defineModule('billing', async (_app, { ctx, routes }) => {
  routes((api) => billingRoutes(api, ctx));
});
