import type { PresenceState, SimulatorInboundBody } from '@zapdesk/shared';
import type { SessionManager } from '../../channels/session-manager.js';
import { SimulatorDriver } from '../../channels/simulator/simulator-driver.js';
import type { PhonePresence, SimulatorNetwork } from '../../channels/simulator/simulator-network.js';
import { AppError } from '../../lib/app-error.js';
import type { NodeRelay } from '../../lib/node-relay.js';

/** Decodes a `data:` URL; other URLs are refused (the simulator never fetches from the network). */
function decodeDataUrl(url: string): { data: Buffer; mimetype: string } {
  const match = /^data:([\w.+-]+\/[\w.+-]+)?(;base64)?,(.*)$/s.exec(url);
  if (!match) throw new AppError('ERR_VALIDATION', { extra: { field: 'mediaUrl', message: 'invalid' } });
  const data = match[2] ? Buffer.from(match[3]!, 'base64') : Buffer.from(decodeURIComponent(match[3]!));
  return { data, mimetype: match[1] ?? 'application/octet-stream' };
}

/** What a simulator call carries (JSON, so that it can travel to the node running the session). */
interface Calls {
  receive: { whatsappId: number; input: SimulatorInboundBody };
  outbox: { whatsappId: number; number: string };
  read: { whatsappId: number; number: string };
  presence: { whatsappId: number; number: string; presence: PresenceState };
  shownPresence: { whatsappId: number; number: string };
}
type Op = keyof Calls;

/**
 * The simulator's phones live in the memory of the node (or worker) running the connection's
 * session. These calls run there: here when this node runs it, otherwise through the relay (Redis)
 * on the node holding the session's lease, so the simulator answers through every node and worker.
 */
export class SimulatorCalls {
  constructor(
    private readonly sessions: SessionManager,
    private readonly network: SimulatorNetwork,
    private readonly relay?: NodeRelay,
  ) {
    for (const op of ['receive', 'outbox', 'read', 'presence', 'shownPresence'] as const) {
      relay?.handle(`simulator.${op}`, (payload) => this.local(op, payload as Calls[typeof op]));
    }
  }

  /** Injects a customer message; resolves with its provider id once the pipeline stored it. */
  receive(whatsappId: number, input: SimulatorInboundBody): Promise<string> {
    return this.run('receive', { whatsappId, input }) as Promise<string>;
  }

  /** What the business sent to the simulated phone `number`. */
  outbox(whatsappId: number, number: string): Promise<ReturnType<SimulatorNetwork['outbox']>> {
    return this.run('outbox', { whatsappId, number }) as Promise<ReturnType<SimulatorNetwork['outbox']>>;
  }

  /** The phone `number` reads what it got (read acks). */
  async read(whatsappId: number, number: string): Promise<void> {
    await this.run('read', { whatsappId, number });
  }

  /** The phone `number` types, records or stops; resolves once the event was emitted. */
  async presence(whatsappId: number, number: string, presence: PresenceState): Promise<void> {
    await this.run('presence', { whatsappId, number, presence });
  }

  /** What the phone `number` sees of the business's presence. */
  shownPresence(whatsappId: number, number: string): Promise<PhonePresence> {
    return this.run('shownPresence', { whatsappId, number }) as Promise<PhonePresence>;
  }

  /**
   * Runs the call here when the session runs here, else on the lease holder through the relay.
   * @throws AppError ERR_WAPP_NOT_INITIALIZED when no node runs the session.
   */
  private async run<K extends Op>(op: K, payload: Calls[K]): Promise<unknown> {
    if (this.sessions.get(payload.whatsappId) || !this.relay) return this.local(op, payload);
    const holder = await this.sessions.holder(payload.whatsappId);
    if (!holder || holder === this.relay.nodeId) return this.local(op, payload);
    return this.relay.call(holder, `simulator.${op}`, payload);
  }

  private async local<K extends Op>(op: K, payload: Calls[K]): Promise<unknown> {
    const driver = this.sessions.get(payload.whatsappId);
    if (!(driver instanceof SimulatorDriver)) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    if (op === 'outbox') {
      const { whatsappId, number } = payload as Calls['outbox'];
      return this.network.outbox(whatsappId, number);
    }
    if (op === 'read') {
      const { whatsappId, number } = payload as Calls['read'];
      this.network.read(whatsappId, number);
      return null;
    }
    if (op === 'presence') {
      const { number, presence } = payload as Calls['presence'];
      await driver.presence(number, presence);
      return null;
    }
    if (op === 'shownPresence') {
      const { whatsappId, number } = payload as Calls['shownPresence'];
      return this.network.presence(whatsappId, number);
    }
    const { from, name, body, mediaType, mediaUrl, quotedId } = (payload as Calls['receive']).input;
    const media = mediaUrl ? { ...decodeDataUrl(mediaUrl), fileName: undefined } : undefined;
    return driver.receive({ from, name, body, mediaType, media, quotedId }).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      throw new AppError('ERR_WAPP_NOT_INITIALIZED', { message: String(error) });
    });
  }
}
