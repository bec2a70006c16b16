/**
 * The opening of the bot and flow tests that talk to the outside bot services: `fake`
 * (FakeBotServices on loopback) and the app-suite app (`t`, `inject` of app-suite.ts) configured
 * to reach it. The fake closes after the app.
 */
import { afterAll, beforeAll } from 'vitest';
import { useAppSuite } from './app-suite.js';
import { FakeBotServices } from './fake-bot-services.js';

export let fake: FakeBotServices;

/**
 * Registers the file's opening and closing hooks: starts `fake`, then the app with `env(fake.url)`
 * and OUTBOUND_ALLOW_PRIVATE_URLS (the fake listens on loopback, which only that lets bots reach).
 */
export function useBotServicesSuite(env: (fakeUrl: string) => Record<string, string>): void {
  beforeAll(async () => {
    fake = await new FakeBotServices().start();
  });
  afterAll(() => fake?.close());
  useAppSuite(() => ({ ...env(fake.url), OUTBOUND_ALLOW_PRIVATE_URLS: 'true' }));
}
