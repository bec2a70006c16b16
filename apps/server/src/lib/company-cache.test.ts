/**
 * The per-node company caches: what they store and drop, and the NOTIFY the
 * triggers of migration 0028 send for every change the caches depend on.
 */
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DatabaseHandle } from '../db/client.js';
import { campaignSettings, companies, plans, settings, webhooks } from '../db/schema/index.js';
import { createTenantPair, type TenantFixture } from '../test/factories.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { COMPANY_CACHE_CHANNEL, CompanyCaches } from './company-cache.js';

/** A database handle that only listens and shows statements, driven by the test. */
function fakeDatabase() {
  const statements = new Set<(text: string) => void>();
  let notify: (payload: string) => void = () => {};
  let state: (listening: boolean) => void = () => {};
  const database = {
    onStatement: (fn: (text: string) => void) => {
      statements.add(fn);
      return () => void statements.delete(fn);
    },
    listen: async (_channel: string, onNotify: (p: string) => void, onState: (l: boolean) => void) => {
      notify = onNotify;
      state = onState;
      onState(true);
      return async () => onState(false);
    },
  } as unknown as DatabaseHandle;
  return {
    database,
    notify: (payload: string) => notify(payload),
    setListening: (listening: boolean) => state(listening),
    statement: (text: string) => {
      for (const fn of statements) fn(text);
    },
  };
}

/** A hub with one cache whose loads count per company and answer `value`. */
async function hubWithCache(value = (companyId: number) => `v${companyId}`) {
  const db = fakeDatabase();
  const hub = new CompanyCaches();
  const loads: number[] = [];
  const cache = hub.define({
    topic: 'things',
    localWrite: /^update "things"/,
    load: async (companyId: number) => {
      loads.push(companyId);
      return value(companyId);
    },
  });
  await hub.start(db.database);
  return { db, hub, cache, loads };
}

describe('company cache', () => {
  it('reads a company once, then answers from memory', async () => {
    const { cache, loads } = await hubWithCache();
    expect(await cache.get(1)).toBe('v1');
    expect(await cache.get(1)).toBe('v1');
    expect(await cache.get(2)).toBe('v2');
    expect(loads).toEqual([1, 2]);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 2 });
  });

  it('shares one read between concurrent misses of a company', async () => {
    const { cache, loads } = await hubWithCache();
    expect(await Promise.all([cache.get(7), cache.get(7), cache.get(7)])).toEqual(['v7', 'v7', 'v7']);
    expect(loads).toEqual([7]);
  });

  it("drops a company's entry on its NOTIFY, the whole cache on '<topic>:*', every cache on anything else", async () => {
    const { db, hub, cache, loads } = await hubWithCache();
    const other = hub.define({ topic: 'others', localWrite: /^never/, load: async () => 'o' });
    await Promise.all([cache.get(1), cache.get(2), other.get(1)]);
    db.notify('things:1');
    await Promise.all([cache.get(1), cache.get(2), other.get(1)]);
    expect(loads).toEqual([1, 2, 1]);
    expect(other.stats.misses).toBe(1);
    db.notify('things:*');
    await Promise.all([cache.get(1), cache.get(2)]);
    expect(loads).toEqual([1, 2, 1, 1, 2]);
    db.notify('*');
    await Promise.all([cache.get(1), other.get(1)]);
    expect(loads).toEqual([1, 2, 1, 1, 2, 1]);
    expect(other.stats.misses).toBe(2);
    // The same definition again is the same cache.
    expect(hub.define({ topic: 'things', localWrite: /x/, load: async () => 'x' })).toBe(cache);
  });

  it('bypasses itself after a write of this node it depends on, until the NOTIFY can have come', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const { db, cache, loads } = await hubWithCache();
      await cache.get(1);
      db.statement('select * from "things"');
      await cache.get(1);
      expect(loads).toEqual([1]);
      db.statement('update "things" set "name" = $1');
      expect(cache.usable).toBe(false);
      await cache.get(1);
      await cache.get(1);
      expect(loads).toEqual([1, 1, 1]);
      vi.advanceTimersByTime(2001);
      expect(cache.usable).toBe(true);
      await cache.get(1);
      await cache.get(1);
      expect(loads).toEqual([1, 1, 1, 1]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shares one read between concurrent misses while bypassed or not listening, and stores none', async () => {
    const { db, cache, loads } = await hubWithCache();
    db.statement('update "things" set "name" = $1');
    expect(cache.usable).toBe(false);
    expect(await Promise.all([cache.get(3), cache.get(3), cache.get(4)])).toEqual(['v3', 'v3', 'v4']);
    expect(loads).toEqual([3, 4]);
    // A write of this node after a read began: later misses do not join that read.
    const first = cache.get(3);
    db.statement('update "things" set "name" = $1');
    await Promise.all([first, cache.get(3)]);
    expect(loads).toEqual([3, 4, 3, 3]);
    db.setListening(false);
    await Promise.all([cache.get(5), cache.get(5)]);
    await cache.get(5);
    expect(loads).toEqual([3, 4, 3, 3, 5, 5]);
    expect(cache.stats.hits).toBe(0);
  });

  it('does not store a read that raced with an invalidation, and caches nothing while not listening', async () => {
    let version = 1;
    const { db, cache, loads } = await hubWithCache(() => `v${version}`);
    // The first read sees version 1; the change's NOTIFY arrives before the read's answer.
    const first = cache.get(1);
    version = 2;
    db.notify('things:1');
    expect(await first).toBe('v1');
    expect(await cache.get(1)).toBe('v2');
    expect(await cache.get(1)).toBe('v2');
    expect(loads).toEqual([1, 1]);
    db.setListening(false);
    await cache.get(1);
    await cache.get(1);
    expect(loads).toEqual([1, 1, 1, 1]);
  });
});

describe('cache triggers (migration 0028)', () => {
  let t: TestApp;
  let a: TenantFixture;
  let b: TenantFixture;
  const payloads: string[] = [];
  let stop: () => Promise<void>;
  beforeAll(async () => {
    t = await createTestApp();
    ({ a, b } = await createTenantPair(t.app));
    stop = await t.database.listen(
      COMPANY_CACHE_CHANNEL,
      (payload) => payloads.push(payload),
      () => {},
    );
  });
  afterAll(async () => {
    await stop();
    await t.close();
  });

  /** The payloads NOTIFY sends for what `write` does. */
  async function notified(write: () => Promise<unknown>): Promise<string[]> {
    payloads.length = 0;
    await write();
    // A marker sent after the write's commit: everything before it has arrived once it has.
    await t.app.ctx.db.execute(sql`select pg_notify(${COMPANY_CACHE_CHANNEL}, 'marker:0')`);
    await vi.waitFor(() => expect(payloads).toContain('marker:0'), { timeout: 5000 });
    return payloads.filter((p) => p !== 'marker:0');
  }

  it('notifies changes of campaign settings, webhooks, settings and a company plan to that company', async () => {
    const { db } = t.app.ctx;
    expect(
      await notified(() =>
        db.insert(campaignSettings).values({ companyId: a.companyId, optOutKeyword: 'PARAR' }),
      ),
    ).toEqual([`campaign_settings:${a.companyId}`]);
    expect(
      await notified(() =>
        db
          .update(campaignSettings)
          .set({ optOutKeyword: '' })
          .where(eq(campaignSettings.companyId, a.companyId)),
      ),
    ).toEqual([`campaign_settings:${a.companyId}`]);
    expect(
      await notified(() =>
        db.insert(webhooks).values({
          companyId: b.companyId,
          url: 'https://example.com/hook',
          events: ['message.created'],
          secretSealed: 'x',
          secretHint: 'x',
        }),
      ),
    ).toEqual([`webhooks:${b.companyId}`]);
    expect(
      await notified(() =>
        db.update(webhooks).set({ active: false }).where(eq(webhooks.companyId, b.companyId)),
      ),
    ).toEqual([`webhooks:${b.companyId}`]);
    expect(
      await notified(() =>
        db
          .update(settings)
          .set({ value: 'enabled' })
          .where(and(eq(settings.companyId, b.companyId), eq(settings.key, 'CheckMsgIsGroup'))),
      ),
    ).toEqual([`settings:${b.companyId}`]);
    const [company] = await db.select().from(companies).where(eq(companies.id, a.companyId));
    const [plan] = await db
      .insert(plans)
      .values({ name: `Outro ${Date.now()}` })
      .returning();
    expect(
      await notified(() =>
        db.update(companies).set({ planId: plan!.id }).where(eq(companies.id, a.companyId)),
      ),
    ).toEqual([`webhooks:${a.companyId}`]);
    // A company write that leaves the plan alone says nothing.
    expect(
      await notified(() =>
        db.update(companies).set({ name: 'Outro nome' }).where(eq(companies.id, a.companyId)),
      ),
    ).toEqual([]);
    expect(
      await notified(() => db.update(plans).set({ useExternalApi: false }).where(eq(plans.id, plan!.id))),
    ).toEqual(['webhooks:*']);
    await db.update(companies).set({ planId: company!.planId }).where(eq(companies.id, a.companyId));
  });
});
