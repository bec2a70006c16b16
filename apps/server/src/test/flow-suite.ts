/**
 * The opening of the flow tests, as live bindings: `t` (the app), `inject` (injectAs over it), `a`
 * and `b` (two companies), `whatsappId` (A's simulator connection) and `flowId` (A's flow), from
 * createFlowFixture. `useFlowSuite` opens them before the file's tests and closes the app after
 * them; see connection-suite.ts for why bindings.
 */
import { afterAll, beforeAll } from 'vitest';
import { injectAs, type TenantFixture } from './factories.js';
import { createFlowFixture } from './flow-fixture.js';
import type { TestApp } from './test-app.js';

export let t: TestApp;
export let a: TenantFixture;
export let b: TenantFixture;
export let whatsappId: number;
export let flowId: number;

/** `method url` as a user (bearer token) with an optional JSON payload, on this file's app. */
export const inject = injectAs(() => t.app);

/** Registers the file's opening (createFlowFixture with `options`: the flow's name and graph) and closing hooks. */
export function useFlowSuite(options: Parameters<typeof createFlowFixture>[0] = {}): void {
  beforeAll(async () => {
    ({ t, a, b, whatsappId, flowId } = await createFlowFixture(options));
  });
  afterAll(() => t?.close());
}
