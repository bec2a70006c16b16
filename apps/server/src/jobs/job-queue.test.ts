/**
 * The job queue on a real database (PGlite, or Postgres with TEST_DATABASE_URL): a backlog drains
 * without a pause per job, several keys at once; one key's jobs run one at a time in order, on one
 * node and across two; a restarted node takes back at once the jobs its killed run left active.
 * Workers poll only every hour here, so a worker that waited for its poll between jobs would never
 * finish (the test would time out). A delayed job runs when its timer rings, and a job queued on
 * another node wakes a worker through the database's NOTIFY.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotifyListener } from '../lib/notify-listener.js';
import { NotifySignal } from '../lib/notify-signal.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { JOB_WAKE_CHANNEL, JobQueue, retryConcurrentDdl } from './job-queue.js';

let t: TestApp;
const queues: JobQueue[] = [];
const listeners: NotifyListener[] = [];
const log = pino({ level: 'silent' });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  for (const queue of queues.reverse()) await queue.stop(1000);
  for (const listener of listeners) await listener.stop();
  await t.close();
});

/**
 * A queue on the test database; `workers` run in the background, polling once an hour. `wakes` is
 * its node's NOTIFY signal on JOB_WAKE_CHANNEL (see `listening`).
 */
function queueOf(nodeId: string, workers: boolean, concurrency = 8, wakes?: NotifySignal): JobQueue {
  const queue = new JobQueue(t.database, {
    log,
    workers,
    nodeId,
    pollingIntervalSeconds: 3600,
    concurrency,
    wakes,
  });
  queues.push(queue);
  return queue;
}

/** A node's LISTEN on JOB_WAKE_CHANNEL (its own connection on Postgres), as buildApp sets it up. */
async function listening(): Promise<NotifySignal> {
  const signal = new NotifySignal(JOB_WAKE_CHANNEL);
  const listener = new NotifyListener().add(signal);
  listeners.push(listener);
  await listener.start(t.database);
  return signal;
}

/** A handler recording the items it ran, and a promise of the `count`-th. */
function recorder(count: number) {
  const ran: Item[] = [];
  let done!: () => void;
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const handler = async (item: Item) => {
    ran.push(item);
    if (ran.length === count) done();
  };
  return { ran, all, handler };
}

interface Item {
  key: string;
  seq: number;
}

async function states(name: string): Promise<Record<string, number>> {
  const { rows } = await t.database.executor.executeSql(
    'select state::text as state, count(*)::int as n from pgboss.job where name = $1 group by state',
    [name],
  );
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

describe('job queue', () => {
  it('drains a backlog of 50 jobs on 50 keys, several at once, without waiting for a poll', async () => {
    const name = 'test-burst';
    const producer = queueOf('producer', false);
    producer.define<Item>(name, async () => undefined, { key: (d) => d.key });
    for (let i = 0; i < 50; i++) await producer.send<Item>(name, { key: `k${i}`, seq: i });

    const consumer = queueOf('consumer', true);
    let inFlight = 0;
    let maxInFlight = 0;
    const seen: number[] = [];
    consumer.define<Item>(
      name,
      async (item) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        seen.push(item.seq);
        inFlight--;
      },
      { key: (d) => d.key },
    );
    await consumer.start();
    await consumer.idle();

    expect(seen.sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
    expect(await states(name)).toEqual({ completed: 50 });
    // Parallel across keys: a whole claim's worth ran at once.
    expect(maxInFlight).toBe(8);
    const { claims, timedPolls, ran } = consumer.counters;
    expect(ran).toBe(50);
    // No poll interval between jobs: each job costs at most one claim, plus the empty one at the end.
    expect(timedPolls).toBe(0);
    expect(claims).toBeLessThanOrEqual(51);
  });

  it("runs one key's jobs one at a time in the order queued, across two nodes, other keys in parallel", async () => {
    const name = 'test-order';
    const producer = queueOf('producer-2', false);
    producer.define<Item>(name, async () => undefined, { key: (d) => d.key });
    const keys = ['a', 'b', 'c'];
    for (let seq = 0; seq < 10; seq++) {
      for (const key of keys) await producer.send<Item>(name, { key, seq });
    }

    const order = new Map<string, number[]>(keys.map((k) => [k, []]));
    const running = new Set<string>();
    let overlapsWithinKey = 0;
    let maxKeysAtOnce = 0;
    const handler = async (item: Item) => {
      if (running.has(item.key)) overlapsWithinKey++;
      running.add(item.key);
      maxKeysAtOnce = Math.max(maxKeysAtOnce, running.size);
      await new Promise((resolve) => setImmediate(resolve));
      order.get(item.key)!.push(item.seq);
      running.delete(item.key);
    };
    const node1 = queueOf('node-1', true, 4);
    const node2 = queueOf('node-2', true, 4);
    node1.define<Item>(name, handler, { key: (d) => d.key });
    node2.define<Item>(name, handler, { key: (d) => d.key });
    await Promise.all([node1.start(), node2.start()]);
    await Promise.all([node1.idle(), node2.idle()]);
    await node2.idle();
    await node1.idle();

    expect(await states(name)).toEqual({ completed: 30 });
    for (const key of keys) expect(order.get(key)).toEqual([...Array(10).keys()]);
    expect(overlapsWithinKey).toBe(0);
    // Positive control: different keys did run at the same time.
    expect(maxKeysAtOnce).toBeGreaterThan(1);
  });

  it('hands back at start the jobs a killed run of the same node left active; other nodes leave them', async () => {
    const name = 'test-crash';
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    // The run that gets killed: it claims the job and never finishes it.
    const killed = queueOf('node-x', true);
    killed.define<Item>(name, async () => {
      started();
      await stuck;
    });
    await killed.start();
    const id = await killed.send<Item>(name, { key: 'k', seq: 7 });
    await running;
    const { rows } = await t.database.executor.executeSql(
      `select state::text as state, data->>'_claimedBy' as owner from pgboss.job where id = $1`,
      [id],
    );
    expect(rows[0]).toMatchObject({ state: 'active', owner: 'node-x' });

    const ran: Item[] = [];
    // Another node starting leaves the job to its owner (until pg-boss's expiry).
    const other = queueOf('node-y', false);
    other.define<Item>(name, async (item) => void ran.push(item));
    await other.start();
    expect(await other.drain()).toBe(0);
    expect(await states(name)).toEqual({ active: 1 });

    // The same node starting again hands it back and runs it now, with its data as sent.
    const restarted = queueOf('node-x', false);
    restarted.define<Item>(name, async (item) => void ran.push(item));
    await restarted.start();
    expect(await restarted.drain()).toBe(1);
    expect(ran).toEqual([{ key: 'k', seq: 7 }]);
    expect(await states(name)).toEqual({ completed: 1 });

    release();
  });
});

describe('job queue wake-ups (no polling)', () => {
  it('runs a delayed job when its due timer rings, without a poll', async () => {
    const name = 'test-delayed';
    const queue = queueOf('node-timer', true);
    const { ran, all, handler } = recorder(1);
    queue.define<Item>(name, handler);
    await queue.start();
    await queue.idle();
    const before = queue.counters;
    await queue.send<Item>(name, { key: 'd', seq: 1 }, { startAfterSeconds: 1 });
    // The send's wake finds it not due yet and arms the timer at its due time (an hour's poll otherwise).
    await all;

    expect(ran).toEqual([{ key: 'd', seq: 1 }]);
    const after = queue.counters;
    expect(after.timedPolls - before.timedPolls).toBe(0);
    expect(after.dueWakes - before.dueWakes).toBeGreaterThanOrEqual(1);
    expect(after.ran - before.ran).toBe(1);
  });

  it('wakes a node by NOTIFY for a job another node queued, due now or later', async () => {
    const name = 'test-notify';
    // Node B only queues (no workers): nothing in node A's process is told, but the database.
    const nodeB = queueOf('node-b', false);
    nodeB.define<Item>(name, async () => undefined);
    await nodeB.start();
    const nodeA = queueOf('node-a', true, 8, await listening());
    const { ran, all, handler } = recorder(2);
    nodeA.define<Item>(name, handler);
    await nodeA.start();
    await nodeA.idle();
    const before = nodeA.counters;

    await nodeB.send<Item>(name, { key: 'now', seq: 1 });
    await nodeB.send<Item>(name, { key: 'later', seq: 2 }, { startAfterSeconds: 1 });
    await all;

    expect(ran).toEqual([
      { key: 'now', seq: 1 },
      { key: 'later', seq: 2 },
    ]);
    const after = nodeA.counters;
    // The first NOTIFY woke it, the second armed its timer: no poll (an hour) in between.
    expect(after.timedPolls - before.timedPolls).toBe(0);
    expect(after.notifiedWakes - before.notifiedWakes).toBeGreaterThanOrEqual(2);
    expect(after.dueWakes - before.dueWakes).toBeGreaterThanOrEqual(1);
    await nodeA.idle();
    expect(await states(name)).toEqual({ completed: 2 });
  });

  it("wakes another node for a key's next job when the node that ran the one before ends it", async () => {
    const name = 'test-key-handoff';
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const running = new Promise<void>((resolve) => {
      started = resolve;
    });
    // Node C runs the key's first job and holds it; node D hears of the second, held behind it.
    const nodeC = queueOf('node-c', true, 1);
    nodeC.define<Item>(
      name,
      async () => {
        started();
        await held;
      },
      { key: (d) => d.key },
    );
    await nodeC.start();
    await nodeC.send<Item>(name, { key: 'k', seq: 1 });
    await running;
    const nodeD = queueOf('node-d', true, 8, await listening());
    const { ran, all, handler } = recorder(1);
    nodeD.define<Item>(name, handler, { key: (d) => d.key });
    await nodeD.start();
    await nodeC.send<Item>(name, { key: 'k', seq: 2 });
    await nodeD.idle();
    expect(ran).toEqual([]);
    const before = nodeD.counters;

    // C stops taking jobs (its running one still ends): only D can run the second job, once the end
    // of the first is announced.
    const stopping = nodeC.stop(10_000);
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await stopping;
    await all;
    expect(ran).toEqual([{ key: 'k', seq: 2 }]);
    expect(nodeD.counters.timedPolls - before.timedPolls).toBe(0);
    expect(nodeD.counters.notifiedWakes - before.notifiedWakes).toBeGreaterThanOrEqual(1);
  });
});

describe('retryConcurrentDdl (nodes creating the queues and index at once)', () => {
  const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

  it('runs a step again after a deadlock or a duplicate catalog row, until it passes', async () => {
    let calls = 0;
    const result = await retryConcurrentDdl(async () => {
      calls++;
      if (calls === 1) throw deadlock();
      if (calls === 2) throw Object.assign(new Error('duplicate key value'), { code: '23505' });
      return 'created';
    });
    expect(result).toBe('created');
    expect(calls).toBe(3);
  });

  it('passes any other error on at once, and a deadlock after the last attempt', async () => {
    let calls = 0;
    const other = Object.assign(new Error('permission denied'), { code: '42501' });
    await expect(
      retryConcurrentDdl(async () => {
        calls++;
        throw other;
      }),
    ).rejects.toBe(other);
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retryConcurrentDdl(async () => {
        calls++;
        throw deadlock();
      }),
    ).rejects.toThrow('deadlock detected');
    expect(calls).toBe(8);
  });
});
