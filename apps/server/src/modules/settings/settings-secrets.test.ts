/**
 * The spec's "payment-provider token key" among the settings (document 2 section 7, document 3):
 * Zapdesk keeps the provider's token in the server's environment, never as a company setting that
 * GET /settings would hand to every user of the company (docs/billing.md, decision 0119).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, injectAs, login } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const ASAAS_KEY = 'asaas-secret-key-of-the-platform';
const CRM_TOKEN = 'perfex-secret-token-of-the-platform';

let t: TestApp;
const inject = injectAs(() => t.app);
beforeAll(async () => {
  t = await createTestApp({
    BILLING_PROVIDER: 'crm',
    CRM_URL: 'http://127.0.0.1:9',
    CRM_TOKEN,
    ASAAS_API_URL: 'http://127.0.0.1:9/v3',
    ASAAS_API_KEY: ASAAS_KEY,
  });
});
afterAll(() => t?.close());

describe('the payment provider token is not a company setting', () => {
  it('refuses the classic token keys on PUT /settings, with or without the key in the body', async () => {
    const { admin } = await createTenant(t.app);
    for (const key of ['asaas', 'asaasToken', 'paymentToken', 'crmToken']) {
      const bare = await inject('PUT', `/api/settings/${key}`, admin, { value: 'stolen-token' });
      expect(bare.json(), key).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
      const keyed = await inject('PUT', `/api/settings/${key}`, admin, { key, value: 'stolen-token' });
      expect(keyed.json(), key).toEqual({ error: 'ERR_NO_SETTING_FOUND' });
    }
  });

  it('never answers the platform token to a company user: settings, login, billing info', async () => {
    const { admin, agent } = await createTenant(t.app);
    // Before the logins below: a login ends the user's earlier session.
    const info = await inject('GET', '/api/billing/info', admin);
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({ provider: 'crm' });
    expect(info.body).not.toContain(ASAAS_KEY);
    expect(info.body).not.toContain(CRM_TOKEN);
    for (const user of [admin, agent]) {
      const list = await inject('GET', '/api/settings', user);
      expect(list.statusCode).toBe(200);
      const keys = (list.json() as { key: string }[]).map((s) => s.key);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((k) => /asaas|token/i.test(k))).toEqual([]);
      const signedIn = await login(t.app, user.email);
      expect(signedIn.statusCode).toBe(200);
      for (const answer of [list.body, signedIn.body]) {
        expect(answer).not.toContain(ASAAS_KEY);
        expect(answer).not.toContain(CRM_TOKEN);
      }
    }
  });
});
