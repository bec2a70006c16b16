/**
 * The node's one LISTEN connection (NotifyListener): the auth guard's cache and the company caches
 * share it, each gets only its own channel's NOTIFY, and both start over when the connection is lost
 * and when it is back.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { AUTH_CHANNEL, type CachedUser } from '../modules/auth/auth-cache.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { COMPANY_CACHE_CHANNEL } from './company-cache.js';

let t: TestApp;
const listened: (string | readonly string[])[] = [];
const states: ((listening: boolean) => void)[] = [];
const loads: number[] = [];

beforeAll(async () => {
  t = await createTestApp(
    {},
    {},
    {
      onDatabase: (database: DatabaseHandle) => {
        const listen = database.listen;
        database.listen = (channels, onNotify, onState) => {
          listened.push(channels);
          states.push(onState);
          return listen(channels, onNotify, onState);
        };
      },
    },
  );
});

afterAll(async () => {
  await t.close();
});

/** A company cache of the app counting its loads in `loads`. */
const probe = () =>
  t.app.ctx.caches!.define({
    topic: 'probe',
    localWrite: /^$/,
    load: async (companyId: number) => {
      loads.push(companyId);
      return companyId;
    },
  });

const user: CachedUser = {
  userId: 41,
  companyId: 1,
  profile: 'admin',
  super: false,
  dueDate: null,
  planFlags: {} as CachedUser['planFlags'],
  allTicket: false,
  queueIds: [],
};

/** Puts user 41 (session 's') into the auth cache and company 1 into the probe cache. */
async function fill(): Promise<void> {
  const auth = t.app.ctx.authCache!;
  await vi.waitFor(() => expect(t.app.ctx.caches!.usable && auth.usable).toBe(true), { timeout: 5000 });
  auth.store(auth.begin(), user, 's', Date.now() + 60_000);
  expect(auth.get(41, 's')).toEqual(user);
  await probe().get(1);
  const before = loads.length;
  await probe().get(1);
  expect(loads.length).toBe(before);
}

/** Sends a NOTIFY from the app's own connections. */
async function notify(channel: string, payload: string): Promise<void> {
  await t.app.ctx.db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** The server's LISTEN connections on the test database (Postgres only). */
async function listenConnections(): Promise<number> {
  const rows = await t.database.executor.executeSql(
    `select count(*)::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'listen %'`,
  );
  return Number(rows.rows[0]!.n);
}

describe('one NOTIFY listener per node', () => {
  it('listens once, on the auth and the company cache channels', async () => {
    expect(listened).toHaveLength(1);
    expect([listened[0]].flat()).toEqual(expect.arrayContaining([AUTH_CHANNEL, COMPANY_CACHE_CHANNEL]));
    expect(t.app.ctx.notifications).toBeDefined();
    if (t.database.kind === 'postgres') expect(await listenConnections()).toBe(1);
  });

  it("gives each cache its own channel's NOTIFY and drops the entry it names", async () => {
    await fill();
    const auth = t.app.ctx.authCache!;
    const caches = t.app.ctx.caches!;
    const authSeen = auth.stats.invalidations;
    const cachesSeen = probe().stats.invalidations;
    // A payload on the other channel would empty the whole cache ('u' and 'probe' are not its own).
    await notify(AUTH_CHANNEL, 'u:41');
    await vi.waitFor(() => expect(auth.stats.invalidations).toBe(authSeen + 1), { timeout: 5000 });
    expect(auth.get(41, 's')).toBeUndefined();
    expect(probe().stats.invalidations).toBe(cachesSeen);
    const loaded = loads.length;
    await probe().get(1);
    expect(loads.length).toBe(loaded);

    auth.store(auth.begin(), user, 's', Date.now() + 60_000);
    await notify(COMPANY_CACHE_CHANNEL, 'probe:1');
    await vi.waitFor(() => expect(probe().stats.invalidations).toBe(cachesSeen + 1), { timeout: 5000 });
    expect(auth.get(41, 's')).toEqual(user);
    await probe().get(1);
    expect(loads.length).toBe(loaded + 1);
    expect(caches.usable).toBe(true);
  });

  it('empties both caches and caches nothing while the connection is down, and again once it is back', async () => {
    await fill();
    const auth = t.app.ctx.authCache!;
    const caches = t.app.ctx.caches!;
    states[0]!(false);
    expect(auth.usable).toBe(false);
    expect(caches.usable).toBe(false);
    expect(auth.get(41, 's')).toBeUndefined();
    auth.store(auth.begin(), user, 's', Date.now() + 60_000);
    const loaded = loads.length;
    await probe().get(1);
    await probe().get(1);
    expect(loads.length).toBe(loaded + 2);
    states[0]!(true);
    expect(auth.get(41, 's')).toBeUndefined();
    await probe().get(1);
    await probe().get(1);
    expect(loads.length).toBe(loaded + 3);
  });

  it.runIf(process.env.TEST_DATABASE_URL)(
    'reconnects one connection that empties both caches when Postgres drops it',
    async () => {
      await fill();
      const auth = t.app.ctx.authCache!;
      const seen = auth.stats.invalidations;
      const cachesSeen = probe().stats.invalidations;
      await t.database.executor.executeSql(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and query ilike 'listen %'`,
      );
      // Lost, then listening again: each empties both caches.
      await vi.waitFor(
        () => {
          expect(auth.stats.invalidations).toBeGreaterThanOrEqual(seen + 2);
          expect(probe().stats.invalidations).toBeGreaterThanOrEqual(cachesSeen + 2);
          expect(auth.usable && t.app.ctx.caches!.usable).toBe(true);
        },
        { timeout: 10_000, interval: 50 },
      );
      expect(auth.get(41, 's')).toBeUndefined();
      const loaded = loads.length;
      await probe().get(1);
      expect(loads.length).toBe(loaded + 1);
      expect(await listenConnections()).toBe(1);
    },
  );
});
