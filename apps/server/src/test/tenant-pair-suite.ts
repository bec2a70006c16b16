/**
 * The opening of the tests that need two companies, as live bindings: `t` (the app), `a` and `b`
 * (two companies, each with admin, agent and queue). `useTenantPairSuite` opens them before the
 * file's tests and closes the app after them; see connection-suite.ts for why bindings.
 */
import { afterAll, beforeAll } from 'vitest';
import type { SuiteEnv } from './app-suite.js';
import { createTenantPair, type TenantFixture } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

export let t: TestApp;
export let a: TenantFixture;
export let b: TenantFixture;

/**
 * Registers the file's opening (an app with `env`, then companies A and B) and closing hooks; `env`
 * may be a function, read when the app opens (for variables an earlier `beforeAll` sets up).
 */
export function useTenantPairSuite(env: SuiteEnv = {}): void {
  beforeAll(async () => {
    t = await createTestApp(typeof env === 'function' ? env() : env);
    ({ a, b } = await createTenantPair(t.app));
  });
  afterAll(() => t?.close());
}
