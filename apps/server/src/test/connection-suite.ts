/**
 * The opening most inbox tests share, as live bindings: `t` (the app), `a` (company A with admin,
 * agent and queue), `whatsappId` and `ref` (its simulator connection). `useConnectionSuite` opens
 * them before the file's tests and closes the app after them; every test file has its own module
 * registry (Vitest isolates files), so every file gets its own app.
 */
import { afterAll, beforeAll } from 'vitest';
import type { TenantFixture } from './factories.js';
import { type ConnectionFixture, openConnectionFixture } from './fixtures.js';
import type { TestApp } from './test-app.js';

export let t: TestApp;
export let a: TenantFixture;
export let whatsappId: number;
export let ref: ConnectionFixture['ref'];

/** Registers the file's opening (openConnectionFixture with `env`) and closing hooks. */
export function useConnectionSuite(env: Record<string, string> = {}): void {
  beforeAll(async () => {
    ({ t, a, whatsappId, ref } = await openConnectionFixture(env));
  });
  afterAll(() => t?.close());
}
