/**
 * Two nodes on one Postgres database and one Redis, each with its own simulator network (as two
 * worker processes): simulator calls reaching the node that does not run the connection's session
 * are answered by the node that does. Runs when TEST_DATABASE_URL and TEST_REDIS_URL are set.
 */
import { describe, expect, it } from 'vitest';
import { bearer, customerNumber, injectMessage } from '../../test/factories.js';
import { node1, node2, onNode2, tenant, useTwoNodeSuite, whatsappId } from '../../test/two-node-suite.js';

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(process.env.TEST_DATABASE_URL && redisUrl)('simulator calls across nodes', () => {
  // No shared simulator network: node 2's phones are not node 1's (separate processes).
  useTwoNodeSuite({ REDIS_URL: redisUrl! }, { sharedSimulator: false });

  it("injects a customer message through the node without the session, into the holder's", async () => {
    expect(node1.app.sessions.get(whatsappId)).toBeDefined();
    expect(node2.sessions.get(whatsappId)).toBeUndefined();
    const from = customerNumber();
    const { id, ticketId } = await injectMessage(node2, tenant.admin, whatsappId, { from, body: 'Oi' });
    expect(id).toBeGreaterThan(0);
    // A reply sent by node 1's session reaches the phone, and node 2 reads that phone's outbox.
    const sent = await node1.app.inject({
      method: 'POST',
      url: `/api/messages/${ticketId}`,
      headers: bearer(tenant.admin),
      payload: { body: 'Resposta' },
    });
    expect(sent.statusCode).toBe(201);
    const outbox = await onNode2('GET', `/api/simulator/${whatsappId}/outbox?number=${from}`, tenant.admin);
    expect(outbox.statusCode).toBe(200);
    expect(outbox.json().map((m: { body: string }) => m.body)).toContain('Resposta');
    expect(node2.simulator.outbox(whatsappId, from)).toEqual([]);
    const read = await onNode2('POST', `/api/simulator/${whatsappId}/read`, tenant.admin, { number: from });
    expect(read.statusCode).toBe(204);
    expect(node1.app.simulator.outbox(whatsappId, from).every((m) => m.ack === 4)).toBe(true);
  });

  it("answers the holder's errors as they are, and ERR_WAPP_NOT_INITIALIZED when nobody runs the session", async () => {
    const bad = await onNode2('POST', `/api/simulator/${whatsappId}/messages`, tenant.admin, {
      from: customerNumber(),
      mediaUrl: 'https://example.com/a.png',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('ERR_VALIDATION');
    await node1.app.sessions.stop(tenant.companyId, whatsappId, { silent: true });
    const res = await onNode2(
      'GET',
      `/api/simulator/${whatsappId}/outbox?number=${customerNumber()}`,
      tenant.admin,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('ERR_WAPP_NOT_INITIALIZED');
  });
});
