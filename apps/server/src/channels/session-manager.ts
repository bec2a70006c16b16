import type { ConnectionState } from '@zapdesk/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { whatsappSessions, whatsapps } from '../db/schema/index.js';
import { findWhatsapp } from '../modules/whatsapp/whatsapp-repository.js';
import type { ChannelDriver, DriverContext, DriverEvents } from './driver.js';
import type { ConnectionRef, InboundPipeline } from './inbound-pipeline.js';

/** Builds a driver for a provider; the session manager gives it the events to report through. */
export type DriverFactory = (context: DriverContext) => ChannelDriver;

/**
 * Owns the running driver of each connection on this node: starts and stops sessions, stores
 * QR codes and states on the connection row and emits `company-{id}-whatsappSession`, and hands
 * inbound messages, acks, edits, deletions and contact updates to the inbound pipeline.
 */
export class SessionManager {
  private readonly drivers = new Map<number, { driver: ChannelDriver; ref: ConnectionRef }>();
  private closing = false;

  constructor(
    private readonly ctx: AppContext,
    private readonly pipeline: InboundPipeline,
    private readonly factories: Partial<Record<string, DriverFactory>>,
  ) {}

  /** The running driver of a connection, if any. */
  get(connectionId: number): ChannelDriver | undefined {
    return this.drivers.get(connectionId)?.driver;
  }

  /**
   * Starts (or restarts) the session of a connection. @throws Error when the provider has no
   * driver on this node.
   */
  async start(companyId: number, connectionId: number): Promise<void> {
    const [row] = await this.ctx.db
      .select({ id: whatsapps.id, provider: whatsapps.provider })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, connectionId)));
    if (!row) throw new Error('connection not found');
    const factory = this.factories[row.provider];
    if (!factory) throw new Error(`no driver for provider ${row.provider}`);
    await this.stop(companyId, connectionId, { silent: true });
    const ref: ConnectionRef = { id: connectionId, companyId };
    const { events, settled } = this.eventsFor(ref);
    const driver = factory({ connectionId, companyId, events });
    this.drivers.set(connectionId, { driver, ref });
    await driver.start();
    // The states reported while starting are stored before start() returns.
    await settled();
  }

  /**
   * Stops a session; `logout` removes the pairing and the stored session state; `silent` keeps the
   * connection's stored status untouched (restart, shutdown).
   */
  async stop(
    companyId: number,
    connectionId: number,
    options: { logout?: boolean; silent?: boolean } = {},
  ): Promise<void> {
    const entry = this.drivers.get(connectionId);
    this.drivers.delete(connectionId);
    if (entry) {
      await entry.driver
        .stop({ logout: options.logout })
        .catch((error) => this.ctx.log.warn({ err: error }, 'driver stop'));
    }
    if (options.logout) {
      await this.ctx.db
        .delete(whatsappSessions)
        .where(and(eq(whatsappSessions.companyId, companyId), eq(whatsappSessions.whatsappId, connectionId)));
    }
    if (!options.silent) await this.setState({ id: connectionId, companyId }, 'DISCONNECTED', { qrcode: '' });
  }

  /** Starts every connection that is not DISCONNECTED (server start). */
  async startAll(): Promise<void> {
    const rows = await this.ctx.db
      .select({ id: whatsapps.id, companyId: whatsapps.companyId })
      .from(whatsapps)
      .where(ne(whatsapps.status, 'DISCONNECTED'));
    await Promise.all(
      rows.map((r) =>
        this.start(r.companyId, r.id).catch((error) =>
          this.ctx.log.error({ err: error, connectionId: r.id }, 'session start failed'),
        ),
      ),
    );
  }

  /** Stops every driver of this node without changing stored states (shutdown). */
  async closeAll(): Promise<void> {
    this.closing = true;
    await Promise.all(
      [...this.drivers.values()].map(({ ref }) => this.stop(ref.companyId, ref.id, { silent: true })),
    );
  }

  /** The events a driver reports through, and a wait for the state changes queued so far. */
  private eventsFor(ref: ConnectionRef): { events: DriverEvents; settled: () => Promise<void> } {
    const current = () => this.drivers.get(ref.id)?.ref === ref && !this.closing;
    const guard =
      <A extends unknown[]>(fn: (...args: A) => Promise<unknown>) =>
      async (...args: A): Promise<void> => {
        await fn(...args).catch((error) =>
          this.ctx.log.error({ err: error, connectionId: ref.id }, 'driver event failed'),
        );
      };
    // State changes of one connection are applied in order (each waits for the previous one).
    let states = Promise.resolve();
    const inOrder = (fn: () => Promise<unknown>) => {
      states = states.then(guard(fn));
    };
    const events: DriverEvents = {
      qr: (code) => {
        if (!current()) return;
        inOrder(() =>
          this.setState(ref, code ? 'qrcode' : undefined, { qrcode: code, bumpRetries: Boolean(code) }),
        );
      },
      state: (state, info) => {
        if (!current()) return;
        inOrder(() =>
          this.setState(ref, state, { number: info?.number, qrcode: state === 'CONNECTED' ? '' : undefined }),
        );
      },
      message: async (message) => {
        await this.pipeline.ingest(ref, message);
      },
      ack: guard(({ providerId, ack }) => this.pipeline.ack(ref, providerId, ack)),
      edit: guard(({ providerId, body }) => this.pipeline.edit(ref, providerId, body)),
      delete: guard(({ providerId }) => this.pipeline.remove(ref, providerId)),
      contact: guard((update) => this.pipeline.contact(ref, update)),
    };
    return { events, settled: () => states };
  }

  private async setState(
    ref: ConnectionRef,
    status: ConnectionState | undefined,
    extra: { qrcode?: string; number?: string; bumpRetries?: boolean },
  ): Promise<void> {
    await this.ctx.db
      .update(whatsapps)
      .set({
        ...(status ? { status } : {}),
        ...(extra.qrcode !== undefined ? { qrcode: extra.qrcode } : {}),
        ...(extra.number ? { number: extra.number } : {}),
        ...(extra.bumpRetries ? { retries: sql`${whatsapps.retries} + 1` } : {}),
        ...(status === 'CONNECTED' ? { retries: 0 } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(whatsapps.companyId, ref.companyId), eq(whatsapps.id, ref.id)));
    const session = await findWhatsapp(this.ctx.db, ref.companyId, ref.id);
    if (session) this.ctx.realtime.toCompany(ref.companyId, 'whatsappSession', { action: 'update', session });
  }
}
