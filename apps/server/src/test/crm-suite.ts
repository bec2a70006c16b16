/**
 * The opening of the CRM billing tests, as live bindings: `crm` (the fake Perfex CRM on loopback)
 * and `t` (an app whose CRM_URL and CRM_TOKEN point at it). `useCrmSuite` starts both before the
 * file's tests and stops both after them; every test file has its own module registry.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { bearer, type TenantFixture } from './factories.js';
import { type FakeCrm, startFakeCrm } from './fake-crm.js';
import { createTestApp, type TestApp } from './test-app.js';

export let crm: FakeCrm;
export let t: TestApp;

/** The CRM customer (POST /crm-create-customer body) of a company with VALID_BILLING_PROFILE. */
export const CRM_CUSTOMER = {
  name: 'Empresa',
  email: 'financeiro@empresa.test',
  phone: '11987654321',
  vat: '295.379.955-93',
  address: 'Rua A, 1',
  city: 'São Paulo',
  state: 'SP',
  zip: '01001-000',
  country: 'BR',
};

/** The billing address fields of a CRM invoice body (POST /crm-create-invoice), all filled in. */
export const CRM_BILLING_ADDRESS = {
  billing_street: 'Rua A, 1',
  billing_city: 'São Paulo',
  billing_state: 'SP',
  billing_zip: '01001-000',
  billing_country: 'BR',
};

/** Registers the file's opening (fake CRM, then the app) and closing (app, then CRM) hooks. */
export function useCrmSuite(): void {
  beforeAll(async () => {
    crm = await startFakeCrm();
    t = await createTestApp({ CRM_URL: crm.url, CRM_TOKEN: crm.token });
  });
  afterAll(async () => {
    await t?.close();
    await crm?.close();
  });
}

/** A request of `tenant`'s admin to the suite's app, with `payload` as the JSON body when given. */
export const call = (
  tenant: TenantFixture,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
): Promise<LightMyRequestResponse> =>
  t.app.inject({ method, url, headers: bearer(tenant.admin), ...(payload ? { payload } : {}) });
