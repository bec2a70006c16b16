/**
 * Realtime client (core sections 4 and 7): socket.io to the same origin, websocket transport, the
 * access token in the query. Channels are `company-{companyId}-{name}` (see CHANNELS in shared).
 */
import { type ChannelName, type ChannelPayloads, companyChannel, SOCKET_PING_MS } from '@zapdesk/shared';
import { io, type Socket } from 'socket.io-client';

export type { Socket };

/** Opens a socket for the signed-in user. */
export function connectSocket(token: string): Socket {
  return io({
    path: '/socket.io',
    transports: ['websocket'],
    query: { token },
    reconnection: true,
    timeout: SOCKET_PING_MS,
  });
}

/** Replaces the token used by the next (re)connection, after a token refresh. */
export function updateSocketToken(socket: Socket, token: string): void {
  socket.io.opts.query = { ...(socket.io.opts.query as Record<string, string>), token };
}

/**
 * Listens on `company-{companyId}-{name}` with a typed payload; returns the function that stops
 * listening.
 */
export function onCompanyChannel<N extends keyof ChannelPayloads & ChannelName>(
  socket: Socket,
  companyId: number,
  name: N,
  handler: (payload: ChannelPayloads[N]) => void,
): () => void {
  const event = companyChannel(companyId, name);
  const listener = (payload: ChannelPayloads[N]) => handler(payload);
  socket.on(event, listener);
  return () => {
    socket.off(event, listener);
  };
}
