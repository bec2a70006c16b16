/**
 * The opening of the tests of two nodes of one installation (as two worker processes), as live
 * bindings: `node1` (a test app), `node2` (its second node, buildSecondNode), `onNode2` (injectAs
 * over node 2), `tenant` (company A with a simulator connection, made on node 1) and its
 * `whatsappId`. Call `useTwoNodeSuite` inside the describe that needs them; see connection-suite.ts
 * for why bindings.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type ConnectedTenant, createConnectedTenant, injectAs } from './factories.js';
import { buildSecondNode, createTestApp, type TestApp } from './test-app.js';

export let node1: TestApp;
export let node2: FastifyInstance;
export let tenant: ConnectedTenant;
export let whatsappId: number;

/** `method url` as a user (bearer token) with an optional JSON payload, on node 2. */
export const onNode2 = injectAs(() => node2);

let sharedSimulator = false;

/**
 * Registers the opening (node 1 with `env`, node 2, then the tenant) and closing (node 2, then node
 * 1) hooks. `sharedSimulator`: node 2 uses node 1's simulator network (one process's phones);
 * otherwise each node has its own, as separate processes do.
 */
export function useTwoNodeSuite(env: Record<string, string>, options: { sharedSimulator: boolean }): void {
  beforeAll(async () => {
    sharedSimulator = options.sharedSimulator;
    node1 = await createTestApp(env);
    node2 = await buildSecondNode(node1, sharedSimulator ? { simulator: node1.app.simulator } : {});
    tenant = await createConnectedTenant(node1.app);
    whatsappId = tenant.whatsappId;
  });
  afterAll(async () => {
    await node2.close();
    await node1.close();
  });
}

/** Closes node 2 and starts it again as `nodeId` (its own id: the same node restarted), ready. */
export async function restartNode2(nodeId: string): Promise<void> {
  await node2.close();
  node2 = await buildSecondNode(node1, {
    nodeId,
    ...(sharedSimulator ? { simulator: node1.app.simulator } : {}),
  });
}
