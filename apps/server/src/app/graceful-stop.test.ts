/**
 * A graceful stop: readiness fails first, the node's session leases are given back with a NOTIFY so
 * that another node on the same Postgres database runs the session within a second or so (not at
 * its next lease upkeep), and the whole stop is bounded.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { whatsappLeases } from '../db/schema/index.js';
import { createSimulatorConnection, createTenant } from '../test/factories.js';
import { buildSecondNode, createTestApp } from '../test/test-app.js';
import { gracefulStop } from './graceful-stop.js';

describe.runIf(process.env.TEST_DATABASE_URL)('graceful stop of the node holding a session', () => {
  it('hands the session to the other node within about a second', async () => {
    // Leases of a minute: upkeep every 15 s, so only the release notice explains a quick take-over.
    const holder = await createTestApp({ SESSION_LEASE_MS: '60000' });
    let other: FastifyInstance | undefined;
    try {
      other = await buildSecondNode(holder, {
        nodeId: `${holder.config.nodeId}-other`,
        simulator: holder.app.simulator,
      });
      other.sessions.startLeaseTimer();
      const tenant = await createTenant(holder.app);
      const whatsappId = await createSimulatorConnection(holder.app, tenant.admin);
      const owner = async () =>
        (
          await holder.database.db
            .select({ owner: whatsappLeases.owner })
            .from(whatsappLeases)
            .where(eq(whatsappLeases.whatsappId, whatsappId))
        )[0]?.owner;
      expect(await owner()).toBe(holder.config.nodeId);
      await other.sessions.tick();
      expect(other.sessions.get(whatsappId)).toBeUndefined();

      const started = Date.now();
      const stopping = gracefulStop(holder.app, 10_000);
      // Readiness fails before anything else happens.
      expect(holder.app.readiness.draining).toBe(true);
      expect(await stopping).toBe('closed');
      await vi.waitFor(
        async () => {
          expect(await owner()).toBe(other!.sessions.lease.nodeId);
          expect(other!.sessions.ready(whatsappId)).toBeDefined();
        },
        { timeout: 3000, interval: 50 },
      );
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await other?.close();
      await holder.close();
    }
  });
});

describe('graceful stop bound', () => {
  it('gives up after the timeout when closing hangs', async () => {
    const t = await createTestApp();
    const closeAll = t.app.sessions.closeAll.bind(t.app.sessions);
    const hang = vi.spyOn(t.app.sessions, 'closeAll').mockImplementation(() => new Promise(() => {}));
    const started = Date.now();
    expect(await gracefulStop(t.app, 200)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2000);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(503);
    hang.mockRestore();
    await closeAll();
    await t.close();
  });
});
