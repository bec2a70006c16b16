/**
 * A node that stops (graceful stop, app.close) drops its sockets so that clients reconnect to
 * another node: the client sees its transport close, not a disconnect from the server (after
 * which socket.io clients do not reconnect by themselves).
 */
import { io as connect } from 'socket.io-client';
import { beforeAll, expect, it } from 'vitest';
import { t, useAppSuite } from '../test/app-suite.js';
import { createTenant, type TenantFixture } from '../test/factories.js';
import { listenLocally, socketReady } from '../test/sockets.js';

let url: string;
let tenant: TenantFixture;

useAppSuite();
beforeAll(async () => {
  url = await listenLocally(t.app);
  tenant = await createTenant(t.app);
});

it('closes its sockets so that their clients reconnect', async () => {
  const socket = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    query: { token: tenant.admin.token },
  });
  await socketReady(socket);
  const reason = new Promise<string>((resolve) => socket.once('disconnect', (why) => resolve(why)));
  t.app.ctx.realtime.close();
  expect(await reason).toBe('transport close');
  socket.close();
});
