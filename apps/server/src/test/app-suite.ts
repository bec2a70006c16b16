/**
 * The opening of the tests that need only the app, as live bindings: `t` (the app) and `inject`
 * (injectAs over it). `useAppSuite` opens the app before the file's tests and closes it after them;
 * see connection-suite.ts for why bindings.
 */
import { afterAll, beforeAll } from 'vitest';
import { injectAs } from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

export let t: TestApp;

/** `method url` as a user (bearer token) with an optional JSON payload, on this file's app. */
export const inject = injectAs(() => t.app);

/** Registers the file's opening (an app with `env`, e.g. `{ LOGIN_RATE_MAX: '5' }`) and closing hooks. */
export function useAppSuite(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    t = await createTestApp(env);
  });
  afterAll(() => t?.close());
}
