/**
 * The opening of the tests that need only the app, as live bindings: `t` (the app) and `inject`
 * (injectAs over it). `useAppSuite` opens the app before the file's tests and closes it after them;
 * see connection-suite.ts for why bindings.
 */
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll } from 'vitest';
import { injectAs } from './factories.js';
import { listenLocally } from './sockets.js';
import { createTestApp, type TestApp } from './test-app.js';

export let t: TestApp;

/** `method url` as a user (bearer token) with an optional JSON payload, on this file's app. */
export const inject = injectAs(() => t.app);

/** Configuration variables of a suite's app, or a function answering them when the app opens. */
export type SuiteEnv = Record<string, string> | (() => Record<string, string>);

/**
 * Registers the file's opening (an app with `env`, e.g. `{ LOGIN_RATE_MAX: '5' }`, or a function
 * read when the app opens, for values an earlier `beforeAll` sets up) and closing hooks.
 */
export function useAppSuite(env: SuiteEnv = {}): void {
  beforeAll(async () => {
    t = await createTestApp(typeof env === 'function' ? env() : env);
  });
  afterAll(() => t?.close());
}

/** The base URL of the listening app (`useListeningAppSuite`), `http://127.0.0.1:<port>`. */
export let url = '';

/** The file's socket.io clients: pushed by the tests, closed before the app (`useListeningAppSuite`). */
export const sockets: Socket[] = [];

/**
 * `useAppSuite` with the app listening on a free loopback port (`url`) for socket tests; the sockets
 * the tests push on `sockets` are closed after the file's tests, before the app.
 */
export function useListeningAppSuite(env: SuiteEnv = {}): void {
  useAppSuite(env);
  beforeAll(async () => {
    url = await listenLocally(t.app);
  });
  afterAll(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });
}
