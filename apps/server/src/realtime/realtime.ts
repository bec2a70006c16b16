import type { Server as HttpServer } from 'node:http';
import {
  type ChannelName,
  type ChannelPayloads,
  companyChannel,
  companyRoom,
  SOCKET_PING_MS,
  userRoom,
} from '@zapdesk/shared';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { AccessClaims } from '../lib/access-claims.js';
import type { Viewer } from '../lib/secret-views.js';

/** Room of one sign-in session (refresh-token family), used to spare it from duplicate-login events. */
export const sessionRoom = (sessionId: string) => `session-${sessionId}`;

/**
 * Ticket visibility rooms: admins see every ticket; a user sees tickets of its queues, tickets
 * assigned to it, and tickets without a queue that nobody holds. (The full visibility rules, with allTicket and
 * showAll, are the tickets inbox's.)
 */
export const adminsRoom = (companyId: number) => `company-${companyId}-admins`;
export const queueRoom = (companyId: number, queueId: number) => `company-${companyId}-queue-${queueId}`;
export const noQueueRoom = (companyId: number) => `company-${companyId}-noqueue`;
/** Pending tickets of every queue, for users whose allTicket is enabled. */
export const pendingRoom = (companyId: number) => `company-${companyId}-pending`;

/** The rooms that receive events of a ticket (see `ticketVisibleTo` for the same rules in SQL). */
export function ticketRooms(ticket: {
  companyId: number;
  queueId: number | null;
  userId: number | null;
  status?: string;
}): string[] {
  const rooms = [adminsRoom(ticket.companyId)];
  // A ticket without a queue is everybody's only while nobody holds it.
  if (ticket.queueId !== null) rooms.push(queueRoom(ticket.companyId, ticket.queueId));
  else if (ticket.userId === null) rooms.push(noQueueRoom(ticket.companyId));
  if (ticket.userId !== null) rooms.push(userRoom(ticket.companyId, ticket.userId));
  if (ticket.status === 'pending') rooms.push(pendingRoom(ticket.companyId));
  return rooms;
}

/** Why a session ended, as the `auth` channel's logout event names it. */
export type SessionEndReason = ChannelPayloads['auth']['reason'];

export interface SocketData {
  auth: AccessClaims;
  rooms: string[];
}

/**
 * socket.io on the API's HTTP server (core section 7 Realtime). The handshake carries the access
 * token in `query.token` or `auth.token`; a missing, invalid or expired token, or one whose session
 * has ended (`verify` checks it), is refused with the error message 'ERR_SESSION_EXPIRED'. A socket
 * joins only its company's room, its user's room and its session's room.
 */
/**
 * Told of every company event emitted to the company or to a ticket's rooms (channel and payload),
 * right after the emission; the outgoing webhooks subscribe here.
 */
export type RealtimeListener = (companyId: number, channel: ChannelName, payload: unknown) => void;

/** Told of every event emitted to one user's sockets (`toUser`): the company, the user, channel and payload. */
export type UserEventListener = (
  companyId: number,
  userId: number,
  channel: ChannelName,
  payload: unknown,
) => void;

/**
 * Told of a user's socket that just connected (on this node), after it joined its rooms; or, for
 * `onDisconnect`, of one that just closed (it has left its rooms).
 */
export type ConnectListener = (auth: AccessClaims) => void;

export class Realtime {
  readonly io: Server;
  readonly #listeners: RealtimeListener[] = [];
  readonly #userListeners: UserEventListener[] = [];
  readonly #connectListeners: ConnectListener[] = [];
  readonly #heartbeatListeners: ConnectListener[] = [];
  readonly #disconnectListeners: ConnectListener[] = [];
  /** Set by `close`: sockets dropped by this node's own shutdown are not users leaving. */
  #closing = false;

  constructor(
    server: HttpServer,
    verify: (token: string) => Promise<AccessClaims>,
    private readonly log: FastifyBaseLogger,
    /** Extra rooms of a verified user (ticket visibility); undefined refuses the socket. */
    roomsOf: (auth: AccessClaims) => Promise<string[] | undefined> = async () => [],
    /** Browser origins allowed to connect from elsewhere, with credentials (CORS_ORIGINS). */
    corsOrigins: string[] = [],
  ) {
    this.io = new Server(server, {
      pingInterval: SOCKET_PING_MS,
      pingTimeout: SOCKET_PING_MS,
      serveClient: false,
      cors: corsOrigins.length ? { origin: corsOrigins, credentials: true } : { origin: false },
    });
    this.io.use(async (socket, next) => {
      const token = tokenOf(socket);
      if (!token) return next(new Error('ERR_SESSION_EXPIRED'));
      try {
        const auth = await verify(token);
        const rooms = await roomsOf(auth);
        if (!rooms) return next(new Error('ERR_SESSION_EXPIRED'));
        (socket.data as SocketData).auth = auth;
        (socket.data as SocketData).rooms = rooms;
        next();
      } catch {
        next(new Error('ERR_SESSION_EXPIRED'));
      }
    });
    this.io.on('connection', (socket) => {
      const { auth, rooms } = socket.data as SocketData;
      socket.join([
        companyRoom(auth.companyId),
        userRoom(auth.companyId, auth.userId),
        sessionRoom(auth.sessionId),
        ...rooms,
      ]);
      socket.emit('ready');
      this.#tell(this.#connectListeners, auth, 'connect');
      socket.on('disconnect', () => {
        // A node shutting down drops its sockets; the clients reconnect elsewhere, so nobody left.
        if (!this.#closing) this.#tell(this.#disconnectListeners, auth, 'disconnect');
      });
      // The client's status heartbeat (core section 9: every SOCKET_HEARTBEAT_MS).
      socket.on('userStatus', () => this.#tell(this.#heartbeatListeners, auth, 'heartbeat'));
    });
  }

  #tell(listeners: readonly ConnectListener[], auth: AccessClaims, what: string): void {
    for (const listener of listeners) {
      try {
        listener(auth);
      } catch (error) {
        this.log.error({ err: error }, `${what} listener failed`);
      }
    }
  }

  /** Calls `listener` for every status heartbeat (`userStatus`) a socket of this node sends. */
  onHeartbeat(listener: ConnectListener): void {
    this.#heartbeatListeners.push(listener);
  }

  /** Calls `listener` for every socket that connects to this node (automatic assignment's trigger). */
  onConnect(listener: ConnectListener): void {
    this.#connectListeners.push(listener);
  }

  /**
   * Calls `listener` for every socket of this node that disconnects, whatever the reason but this
   * node's own shutdown (the offline hand-back of automatic assignment checks then whether the user
   * has any socket left).
   */
  onDisconnect(listener: ConnectListener): void {
    this.#disconnectListeners.push(listener);
  }

  /**
   * Which of `userIds` (users of `companyId`) have a live socket now, on any node (through the
   * adapter's fetchSockets when Redis is configured). @returns their ids.
   */
  async connectedUsers(companyId: number, userIds: readonly number[]): Promise<Set<number>> {
    if (userIds.length === 0) return new Set();
    const sockets = await this.io.in(userIds.map((id) => userRoom(companyId, id))).fetchSockets();
    return new Set(sockets.map((socket) => (socket.data as SocketData).auth.userId));
  }

  /**
   * The one subscription point to what the app emits (ticket, message and contact events among
   * others): `listener` is called after each `toCompany`, `toTicket` and `ticketMoved`, in this
   * process. A listener's throw is logged, never passed to the emitting service.
   */
  subscribe(listener: RealtimeListener): void {
    this.#listeners.push(listener);
  }

  /**
   * Subscribes to what is emitted to single users (`toUser`: internal-chat messages among others),
   * in this process; `listener` is called after each emission, and its throw is logged.
   */
  subscribeUsers(listener: UserEventListener): void {
    this.#userListeners.push(listener);
  }

  #publish(companyId: number, channel: ChannelName, payload: unknown): void {
    for (const listener of this.#listeners) {
      try {
        listener(companyId, channel, payload);
      } catch (error) {
        this.log.error({ err: error, channel }, 'realtime listener failed');
      }
    }
  }

  /** Emits `company-{id}-{channel}` to every socket of the company. */
  toCompany<C extends ChannelName>(companyId: number, channel: C, payload: ChannelPayloads[C]): void {
    this.io.to(companyRoom(companyId)).emit(companyChannel(companyId, channel), payload);
    this.#publish(companyId, channel, payload);
  }

  /**
   * Emits `company-{id}-{channel}` to every socket of the company, shaped per recipient by one
   * serializer (`lib/secret-views.ts`): the admins room (admins and super users) gets
   * `shape('admin')`, every other socket `shape('member')`. For records that hold a secret (a
   * connection's API token, an integration's signing secret, a prompt's key). Listeners (outgoing
   * webhooks) are told the member shape: a secret never leaves the server through them.
   */
  toCompanyPerViewer<C extends ChannelName>(
    companyId: number,
    channel: C,
    shape: (viewer: Viewer) => ChannelPayloads[C],
  ): void {
    const name = companyChannel(companyId, channel);
    const member = shape('member');
    this.io.to(adminsRoom(companyId)).emit(name, shape('admin'));
    this.io.to(companyRoom(companyId)).except(adminsRoom(companyId)).emit(name, member);
    this.#publish(companyId, channel, member);
  }

  /** Emits `company-{id}-{channel}` to the sockets of one user, except those of `exceptSessionId`. */
  toUser<C extends ChannelName>(
    companyId: number,
    userId: number,
    channel: C,
    payload: ChannelPayloads[C],
    exceptSessionId?: string,
  ): void {
    let target = this.io.to(userRoom(companyId, userId));
    if (exceptSessionId) target = target.except(sessionRoom(exceptSessionId));
    target.emit(companyChannel(companyId, channel), payload);
    for (const listener of this.#userListeners) {
      try {
        listener(companyId, userId, channel, payload);
      } catch (error) {
        this.log.error({ err: error, channel }, 'realtime user listener failed');
      }
    }
  }

  /**
   * Emits `company-{id}-{channel}` to the sockets of some users and to the company's admins (a
   * record private to its owner, such as a personal quick message); `exceptRooms` are spared.
   */
  toUsersAndAdmins<C extends ChannelName>(
    companyId: number,
    userIds: number[],
    channel: C,
    payload: ChannelPayloads[C],
  ): void {
    this.io
      .to([adminsRoom(companyId), ...userIds.map((id) => userRoom(companyId, id))])
      .emit(companyChannel(companyId, channel), payload);
  }

  /** Emits `company-{id}-{channel}` to the company's sockets except those of some users and the admins. */
  toCompanyExceptUsersAndAdmins<C extends ChannelName>(
    companyId: number,
    userIds: number[],
    channel: C,
    payload: ChannelPayloads[C],
  ): void {
    this.io
      .to(companyRoom(companyId))
      .except([adminsRoom(companyId), ...userIds.map((id) => userRoom(companyId, id))])
      .emit(companyChannel(companyId, channel), payload);
  }

  /** Emits `company-{id}-{channel}` to the sockets allowed to see `ticket`. */
  toTicket<C extends ChannelName>(
    ticket: { companyId: number; queueId: number | null; userId: number | null; status?: string },
    channel: C,
    payload: ChannelPayloads[C],
  ): void {
    this.io.to(ticketRooms(ticket)).emit(companyChannel(ticket.companyId, channel), payload);
    this.#publish(ticket.companyId, channel, payload);
  }

  /**
   * After a ticket changed hands (transfer, return): sockets that saw it before and may not now get
   * `ticket` delete; sockets that may see it get `ticket` update.
   */
  ticketMoved(
    before: { companyId: number; queueId: number | null; userId: number | null; status?: string },
    after: { companyId: number; queueId: number | null; userId: number | null; status?: string; id: number },
    payload: ChannelPayloads['ticket'],
  ): void {
    const channel = companyChannel(after.companyId, 'ticket');
    const now = ticketRooms(after);
    this.io.to(ticketRooms(before)).except(now).emit(channel, { action: 'delete', ticketId: after.id });
    this.io.to(now).emit(channel, payload);
    this.#publish(after.companyId, 'ticket', payload);
  }

  /**
   * The sockets of ended sessions: one session (`sessionId`), or every session of the user except
   * `exceptSessionId`. Each gets `company-{id}-auth` `{ action: 'logout', reason, userId }` and is
   * then disconnected by the server (the client does not reconnect by itself; a new handshake with
   * the same token is refused). Works across nodes through the adapter.
   */
  endSessions(
    target: { companyId: number; userId: number; sessionId?: string; exceptSessionId?: string },
    reason: SessionEndReason,
  ): void {
    let sockets = this.io.in(
      target.sessionId ? sessionRoom(target.sessionId) : userRoom(target.companyId, target.userId),
    );
    if (target.exceptSessionId) sockets = sockets.except(sessionRoom(target.exceptSessionId));
    sockets.emit(companyChannel(target.companyId, 'auth'), {
      action: 'logout',
      reason,
      userId: target.userId,
    } satisfies ChannelPayloads['auth']);
    sockets.disconnectSockets(false);
  }

  /**
   * Moves a user's live sockets (every session, every node) to new ticket rooms after its queues,
   * allTicket or role changed: they leave `previous` (every visibility room they may hold) and join
   * `rooms`, so they stop receiving the tickets the HTTP side no longer shows them.
   */
  moveUserRooms(companyId: number, userId: number, previous: string[], rooms: string[]): void {
    const sockets = this.io.in(userRoom(companyId, userId));
    sockets.socketsLeave(previous);
    sockets.socketsJoin(rooms);
  }

  /**
   * Drops every socket's connection and stops the engine; the HTTP server itself is closed by
   * Fastify. The connections are closed without a disconnect packet: clients see the transport
   * close and reconnect (to another node, through the proxy), where an explicit disconnect would
   * tell them to stay away.
   */
  close(): void {
    this.#closing = true;
    try {
      this.io.engine.close();
    } catch (error) {
      this.log.warn({ err: error }, 'socket.io close');
    }
  }
}

function tokenOf(socket: Socket): string | undefined {
  const fromQuery = socket.handshake.query.token;
  const fromAuth = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
  const token = typeof fromAuth === 'string' && fromAuth ? fromAuth : fromQuery;
  return typeof token === 'string' && token.length > 0 ? token : undefined;
}
