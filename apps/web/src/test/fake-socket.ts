/**
 * A stand-in for the socket.io client in component tests: `vi.mock` the socket module with
 * `connectSocket: connectFakeSocket`, then emit the server's events on `fake.socket`.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

/**
 * The fake client socket: its events, `connected` (true), `disconnect` (a mock) and `io`, the
 * manager's events.
 */
export type FakeSocket = EventEmitter & { connected: boolean; disconnect: () => void; io: EventEmitter };

/** The socket the app connected last; null before it connects. */
export const fake: { socket: FakeSocket | null } = { socket: null };

/** connectSocket's stand-in: a new FakeSocket, kept as `fake.socket`. */
export function connectFakeSocket(): FakeSocket {
  const socket = Object.assign(new EventEmitter(), {
    connected: true,
    disconnect: vi.fn(),
    io: Object.assign(new EventEmitter(), { opts: {} }),
  });
  fake.socket = socket;
  return socket;
}
