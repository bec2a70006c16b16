/**
 * Two server nodes on one Postgres database: a connection's session runs on one node only (its
 * lease), messages sent through the other node are delivered by the owner, an admin's start moves
 * the session, and a node that shuts down hands its sessions over. Leases exist on Postgres only
 * (TEST_DATABASE_URL); PGlite belongs to one process.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { messages, whatsappLeases } from '../db/schema/index.js';
import { customerNumber, injectMessage } from '../test/factories.js';
import {
  node1,
  node2,
  onNode2,
  restartNode2,
  tenant,
  useTwoNodeSuite,
  whatsappId,
} from '../test/two-node-suite.js';

describe.runIf(process.env.TEST_DATABASE_URL)('session leases across nodes', () => {
  // Each node has its own id (NODE_ID); a second process with the same id would be its restart.
  useTwoNodeSuite({}, { sharedSimulator: true });

  const owner = async () =>
    (
      await node1.database.db
        .select({ owner: whatsappLeases.owner })
        .from(whatsappLeases)
        .where(eq(whatsappLeases.whatsappId, whatsappId))
    )[0]?.owner;

  it('runs the session on the node that created it; the other node leaves it there', async () => {
    expect(node1.app.sessions.get(whatsappId)).toBeDefined();
    expect(await owner()).toBe(node1.app.sessions.lease.nodeId);
    await node2.sessions.startAll();
    await node2.sessions.tick();
    expect(node2.sessions.get(whatsappId)).toBeUndefined();
    expect(await node2.sessions.runsElsewhere(whatsappId)).toBe(true);
  });

  it("delivers a reply sent through the other node from the owner's session, once", async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(node1.app, tenant.admin, whatsappId, { from, body: 'Oi' });
    const sent = await onNode2('POST', `/api/messages/${ticketId}`, tenant.admin, {
      body: 'Resposta pelo outro nó',
    });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()[0]).toMatchObject({ ack: 0, wid: null });
    // Node 2 has no session for it, so it does not send it.
    await node2.sessions.tick();
    expect(node1.app.simulator.outbox(whatsappId, from).map((m) => m.body)).not.toContain(
      'Resposta pelo outro nó',
    );
    await node1.app.sessions.tick();
    await node1.app.sessions.tick();
    const bodies = node1.app.simulator.outbox(whatsappId, from).map((m) => m.body);
    expect(bodies.filter((b) => b === 'Resposta pelo outro nó')).toHaveLength(1);
  });

  it("sends, from the owner's session, a reply whose sender died after claiming it, once the sender restarts", async () => {
    const from = customerNumber();
    const { ticketId } = await injectMessage(node1.app, tenant.admin, whatsappId, { from, body: 'Oi' });
    const sent = await onNode2('POST', `/api/messages/${ticketId}`, tenant.admin, {
      body: 'Reivindicada e perdida',
    });
    const messageId = sent.json()[0].id as number;
    // Node 2's process claimed it and was killed before the driver answered.
    const node2Id = node2.sessions.lease.nodeId;
    await node1.database.db
      .update(messages)
      .set({ sendingAt: new Date(), sendingBy: `${node2Id}/killed-process` })
      .where(eq(messages.id, messageId));
    const outbox = () =>
      node1.app.simulator.outbox(whatsappId, from).filter((m) => m.body === 'Reivindicada e perdida');
    // While nobody restarted, the owner leaves a fresh claim of another node alone.
    await node1.app.sessions.tick();
    expect(outbox()).toHaveLength(0);

    // Node 2 comes back with the same id: its start gives the claim back; the owner sends it once.
    await restartNode2(node2Id);
    await node1.app.sessions.tick();
    await node1.app.sessions.tick();
    expect(outbox()).toHaveLength(1);
    const [row] = await node1.database.db.select().from(messages).where(eq(messages.id, messageId));
    expect(row!.wid).toBe(outbox()[0]!.id);
  });

  it('moves the session to the node an admin starts it on; the old owner stops at its next renewal', async () => {
    const res = await onNode2('POST', `/api/whatsappsession/${whatsappId}`, tenant.admin);
    expect(res.statusCode).toBe(204);
    expect(await owner()).toBe(node2.sessions.lease.nodeId);
    expect(node2.sessions.get(whatsappId)).toBeDefined();
    await node1.app.sessions.tick();
    expect(node1.app.sessions.get(whatsappId)).toBeUndefined();
  });

  it('hands the sessions of a node that shuts down to another node', async () => {
    await node2.sessions.closeAll();
    expect(await owner()).toBeUndefined();
    await node1.app.sessions.tick();
    expect(node1.app.sessions.get(whatsappId)).toBeDefined();
    expect(await owner()).toBe(node1.app.sessions.lease.nodeId);
  });
});
