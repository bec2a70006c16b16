/**
 * The opening of the tests that need two companies, as live bindings: `t` (the app), `a` and `b`
 * (two companies, each with admin, agent and queue). `useTenantPairSuite` opens them before the
 * file's tests and closes the app after them; see connection-suite.ts for why bindings.
 */
import { afterAll, beforeAll } from 'vitest';
import { createTenantPair, type TenantFixture } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

export let t: TestApp;
export let a: TenantFixture;
export let b: TenantFixture;

/** Registers the file's opening (an app with `env`, then companies A and B) and closing hooks. */
export function useTenantPairSuite(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    t = await createTestApp(env);
    ({ a, b } = await createTenantPair(t.app));
  });
  afterAll(() => t?.close());
}
