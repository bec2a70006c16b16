import crypto from 'node:crypto';
import type { ErrorCode } from '@zapdesk/shared';
import { createClient, type RedisClientType } from 'redis';
import { AppError } from './app-error.js';

/** Redis channel prefix of the relay: one channel per node id. */
const CHANNEL_PREFIX = 'zapdesk:relay:';

/** A call's handler on the node that answers it: a JSON payload in, a JSON value out. */
export type RelayHandler = (payload: unknown) => Promise<unknown>;

type RelayMessage =
  | { kind: 'call'; id: string; from: string; op: string; payload: unknown }
  | { kind: 'reply'; id: string; ok: true; value: unknown }
  | { kind: 'reply'; id: string; ok: false; code: ErrorCode; status: number };

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Calls from one node to another through Redis pub/sub (REDIS_URL): each node subscribes to its own
 * channel (`zapdesk:relay:<nodeId>`); `call(nodeId, op, payload)` publishes there and waits for the
 * reply on the caller's channel. Used for what lives in one node's memory only (the simulator's
 * phones), so a request may reach any node or worker. Payloads are JSON; an AppError thrown by the
 * handler comes back as the same code and status.
 */
export class NodeRelay {
  private pub?: RedisClientType;
  private sub?: RedisClientType;
  private readonly handlers = new Map<string, RelayHandler>();
  private readonly waiting = new Map<string, Waiting>();

  /**
   * @param url Redis URL.
   * @param nodeId this node's id (config `nodeId`).
   * @param timeoutMs how long a call waits for its reply before ERR_SERVICE_UNAVAILABLE.
   */
  constructor(
    private readonly url: string,
    readonly nodeId: string,
    private readonly timeoutMs = 15_000,
  ) {}

  /** Answers calls of `op` on this node with `handler`. */
  handle(op: string, handler: RelayHandler): this {
    this.handlers.set(op, handler);
    return this;
  }

  /** Connects to Redis and subscribes to this node's channel. */
  async start(): Promise<void> {
    const pub = createClient({ url: this.url }) as RedisClientType;
    const sub = pub.duplicate();
    pub.on('error', () => {});
    sub.on('error', () => {});
    await Promise.all([pub.connect(), sub.connect()]);
    this.pub = pub;
    this.sub = sub;
    await sub.subscribe(CHANNEL_PREFIX + this.nodeId, (raw) => void this.receive(raw));
  }

  /** Fails the calls still waiting and closes the Redis connections. */
  async stop(): Promise<void> {
    for (const [id, waiting] of this.waiting) {
      clearTimeout(waiting.timer);
      waiting.reject(new AppError('ERR_SERVICE_UNAVAILABLE'));
      this.waiting.delete(id);
    }
    const connections = [this.pub, this.sub];
    this.pub = undefined;
    this.sub = undefined;
    await Promise.allSettled(connections.map((c) => c?.quit()));
  }

  /**
   * Runs `op` with `payload` on node `nodeId` and resolves with its answer.
   * @throws AppError with the handler's code; ERR_SERVICE_UNAVAILABLE when no such node listens, the
   *   relay is stopped, or no answer came within the timeout.
   */
  async call<T>(nodeId: string, op: string, payload: unknown): Promise<T> {
    const pub = this.pub;
    if (!pub) throw new AppError('ERR_SERVICE_UNAVAILABLE');
    const id = crypto.randomUUID();
    const answer = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new AppError('ERR_SERVICE_UNAVAILABLE'));
      }, this.timeoutMs);
      this.waiting.set(id, { resolve, reject, timer });
    });
    const message: RelayMessage = { kind: 'call', id, from: this.nodeId, op, payload };
    const receivers = await pub.publish(CHANNEL_PREFIX + nodeId, JSON.stringify(message)).catch(() => 0);
    if (receivers === 0) {
      const waiting = this.waiting.get(id);
      if (waiting) {
        clearTimeout(waiting.timer);
        this.waiting.delete(id);
        waiting.reject(new AppError('ERR_SERVICE_UNAVAILABLE'));
      }
    }
    return (await answer) as T;
  }

  private async receive(raw: string): Promise<void> {
    let message: RelayMessage;
    try {
      message = JSON.parse(raw) as RelayMessage;
    } catch {
      return;
    }
    if (message.kind === 'reply') {
      const waiting = this.waiting.get(message.id);
      if (!waiting) return;
      clearTimeout(waiting.timer);
      this.waiting.delete(message.id);
      if (message.ok) waiting.resolve(message.value);
      else waiting.reject(new AppError(message.code, { status: message.status }));
      return;
    }
    const handler = this.handlers.get(message.op);
    let reply: RelayMessage;
    try {
      if (!handler) throw new AppError('ERR_NOT_FOUND');
      reply = { kind: 'reply', id: message.id, ok: true, value: (await handler(message.payload)) ?? null };
    } catch (error) {
      const known = error instanceof AppError ? error : new AppError('ERR_INTERNAL_SERVER_ERROR');
      reply = { kind: 'reply', id: message.id, ok: false, code: known.code, status: known.status };
    }
    await this.pub?.publish(CHANNEL_PREFIX + message.from, JSON.stringify(reply)).catch(() => undefined);
  }
}
