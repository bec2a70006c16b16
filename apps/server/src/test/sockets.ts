import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll } from 'vitest';
import { createTestApp, type TestApp } from './test-app.js';

/** Opens a websocket-only socket.io client to `url` with `token` (no reconnection). */
export function openSocket(url: string, token: string): Socket {
  return connect(url, { transports: ['websocket'], reconnection: false, forceNew: true, query: { token } });
}

/**
 * Sockets a test opens for its users on `url()` (read at each call) and closes together:
 * `online(user)` resolves once the socket is ready; `closeAll()` goes in the test's afterEach.
 */
export function socketSet(url: () => string) {
  const open: Socket[] = [];
  return {
    async online(user: { token: string }): Promise<Socket> {
      const socket = openSocket(url(), user.token);
      open.push(socket);
      await socketReady(socket);
      return socket;
    },
    closeAll(): void {
      for (const socket of open.splice(0)) socket.disconnect();
    },
  };
}

/** Resolves when the server sent `ready` (the socket joined its rooms). */
export function socketReady(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
}

/**
 * Runs `act` and resolves with the events each socket received on `event` up to a marker sent to
 * every socket afterwards (socket.io keeps the order of one socket's events, so nothing sent before
 * the marker can still arrive): negative checks without waiting for a time.
 */
export async function collectUntilMarker<T>(
  app: FastifyInstance,
  targets: Socket[],
  event: string,
  act: () => unknown,
): Promise<T[][]> {
  const got = targets.map(() => [] as T[]);
  const listeners = targets.map((_s, i) => (payload: T) => got[i]!.push(payload));
  const done = targets.map(
    (socket, i) =>
      new Promise<void>((resolve) => {
        socket.on(event, listeners[i]!);
        socket.once(MARKER, () => resolve());
      }),
  );
  await act();
  app.ctx.realtime.io.emit(MARKER);
  await Promise.all(done);
  targets.forEach((socket, i) => {
    socket.off(event, listeners[i]);
  });
  return got;
}

const MARKER = 'test-marker';

/** Starts `app` listening on a free loopback port; answers its base URL (`http://127.0.0.1:<port>`). */
export async function listenLocally(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/**
 * A test app listening on loopback for the whole file (built in beforeAll, closed in afterAll):
 * read `live.t` and `live.url` inside the tests.
 */
export function listeningTestApp(env: Record<string, string> = {}): { t: TestApp; url: string } {
  const live = { t: undefined as unknown as TestApp, url: '' };
  beforeAll(async () => {
    live.t = await createTestApp(env);
    live.url = await listenLocally(live.t.app);
  });
  afterAll(async () => {
    await live.t?.close();
  });
  return live;
}
