import type { ConnectionState } from '@zapdesk/shared';
import { and, eq, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import { whatsappLeases, whatsappSessions, whatsapps } from '../db/schema/index.js';
import { findWhatsapp } from '../db/whatsapp-repository.js';
import { LEASE_RELEASE_CHANNEL } from '../lib/notify-signal.js';
import { whatsappView } from '../lib/secret-views.js';
import type { ChannelDriver, DriverContext, DriverEvents } from './driver.js';
import type { ConnectionRef, InboundPipeline } from './inbound-pipeline.js';

/** Builds a driver for a provider; the session manager gives it the events to report through. */
export type DriverFactory = (context: DriverContext) => ChannelDriver;

/**
 * Session leases (several nodes on one Postgres): each connection's session runs on the node that
 * holds its lease (`whatsapp_leases`), renewed every `ttlMs / 4` and taken over by another node when
 * it lapses. Off on PGlite, whose data directory belongs to one process anyway.
 */
export interface LeaseOptions {
  enabled: boolean;
  /** This node's id (config `nodeId`: stable across restarts, so a restart takes its leases back). */
  nodeId: string;
  /** How long a lease lasts without renewal, ms. */
  ttlMs: number;
}

/**
 * Owns the running driver of each connection on this node: starts and stops sessions, stores
 * QR codes and states on the connection row and emits `company-{id}-whatsappSession`, and hands
 * inbound messages, acks, edits, deletions and contact updates to the inbound pipeline.
 */
export class SessionManager {
  private readonly drivers = new Map<
    number,
    {
      driver: ChannelDriver;
      ref: ConnectionRef /** Last reported state was CONNECTED. */;
      connected: boolean;
    }
  >();
  private closing = false;
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Immediate | undefined;
  /** What sends what other nodes stored for the connections this node runs (added by the app), in order. */
  private readonly pendingDelivery: ((connectionIds: number[]) => Promise<void>)[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly pipeline: InboundPipeline,
    private readonly factories: Partial<Record<string, DriverFactory>>,
    readonly lease: LeaseOptions = { enabled: false, nodeId: 'local', ttlMs: 20_000 },
  ) {}

  /**
   * Adds what sends the outbound messages waiting for this node's sessions: called when a session
   * reports CONNECTED and, with leases, by `tick()` for the connected sessions. Several run one after
   * the other, in the order they were added; a failure stops the ones after it.
   */
  onPendingDelivery(fn: (connectionIds: number[]) => Promise<void>): void {
    this.pendingDelivery.push(fn);
  }

  /** Runs the pending-delivery senders for these connections, in order. */
  private async deliverPending(connectionIds: number[]): Promise<void> {
    for (const deliver of this.pendingDelivery) await deliver(connectionIds);
  }

  /**
   * Whether a session is expected to run for this connection although it is not connected here: its
   * stored status is not DISCONNECTED (it is starting, or a node will start or take it over), or
   * another live node holds its lease. Outbound messages then wait at ack 0 for it.
   */
  async willRun(connectionId: number): Promise<boolean> {
    const [row] = await this.ctx.db
      .select({ status: whatsapps.status })
      .from(whatsapps)
      .where(eq(whatsapps.id, connectionId));
    if (row && row.status !== 'DISCONNECTED') return true;
    if (this.drivers.get(connectionId)?.driver.keepsQueueWhileDown) return true;
    return this.runsElsewhere(connectionId);
  }

  /** Whether another live node runs the session of this connection (leases on, lease not ours). */
  async runsElsewhere(connectionId: number): Promise<boolean> {
    if (!this.lease.enabled || this.drivers.has(connectionId)) return false;
    const [row] = await this.ctx.db
      .select({ owner: whatsappLeases.owner })
      .from(whatsappLeases)
      .where(
        and(
          eq(whatsappLeases.whatsappId, connectionId),
          ne(whatsappLeases.owner, this.lease.nodeId),
          sql`${whatsappLeases.expiresAt} > now()`,
        ),
      );
    return !!row;
  }

  /**
   * The node id holding a live lease on this connection's session (this node's own id when it runs
   * it here), or undefined when no live node holds it (or leases are off).
   */
  async holder(connectionId: number): Promise<string | undefined> {
    if (this.drivers.has(connectionId)) return this.lease.nodeId;
    if (!this.lease.enabled) return undefined;
    const [row] = await this.ctx.db
      .select({ owner: whatsappLeases.owner })
      .from(whatsappLeases)
      .where(and(eq(whatsappLeases.whatsappId, connectionId), sql`${whatsappLeases.expiresAt} > now()`));
    return row?.owner;
  }

  /**
   * Takes the lease of a connection for this node: when free, lapsed or already ours, or always with
   * `force` (an admin asked this node to start it; the previous owner stops at its next renewal).
   */
  private async acquire(companyId: number, connectionId: number, force: boolean): Promise<boolean> {
    if (!this.lease.enabled) return true;
    const expires = sql`now() + make_interval(secs => ${this.lease.ttlMs / 1000})`;
    const rows = await this.ctx.db
      .insert(whatsappLeases)
      .values({ whatsappId: connectionId, companyId, owner: this.lease.nodeId, expiresAt: expires })
      .onConflictDoUpdate({
        target: whatsappLeases.whatsappId,
        set: { owner: this.lease.nodeId, expiresAt: expires },
        setWhere: force
          ? undefined
          : sql`${whatsappLeases.owner} = ${this.lease.nodeId} or ${whatsappLeases.expiresAt} < now()`,
      })
      .returning({ owner: whatsappLeases.owner });
    return rows.length === 1;
  }

  /**
   * Lease upkeep, every `ttlMs / 4` where timers run (tests call it): renews this node's leases,
   * stops the sessions whose lease another node took, starts the sessions nobody runs (not
   * DISCONNECTED, lease free or lapsed), then sends the outbound messages other nodes stored for
   * this node's sessions.
   */
  async tick(): Promise<void> {
    if (!this.lease.enabled || this.closing) return;
    // Only the leases of sessions running here: one this node held before a restart and did not
    // start again lapses, and is started by whoever takes it.
    const running = [...this.drivers.keys()];
    const renewed = running.length
      ? await this.ctx.db
          .update(whatsappLeases)
          .set({ expiresAt: sql`now() + make_interval(secs => ${this.lease.ttlMs / 1000})` })
          .where(
            and(eq(whatsappLeases.owner, this.lease.nodeId), inArray(whatsappLeases.whatsappId, running)),
          )
          .returning({ id: whatsappLeases.whatsappId })
      : [];
    const held = new Set(renewed.map((r) => r.id));
    for (const { ref } of [...this.drivers.values()]) {
      if (!held.has(ref.id)) await this.stop(ref.companyId, ref.id, { silent: true, keepLease: true });
    }
    const orphans = await this.ctx.db
      .select({ id: whatsapps.id, companyId: whatsapps.companyId, provider: whatsapps.provider })
      .from(whatsapps)
      .leftJoin(whatsappLeases, eq(whatsappLeases.whatsappId, whatsapps.id))
      .where(
        and(
          ne(whatsapps.status, 'DISCONNECTED'),
          or(isNull(whatsappLeases.whatsappId), sql`${whatsappLeases.expiresAt} < now()`),
        ),
      );
    for (const row of orphans) {
      if (!this.factories[row.provider]) continue;
      await this.start(row.companyId, row.id, { force: false }).catch((error) =>
        this.ctx.log.error({ err: error, connectionId: row.id }, 'session takeover failed'),
      );
    }
    const connected = [...this.drivers].filter(([, entry]) => entry.connected).map(([id]) => id);
    if (connected.length && this.pendingDelivery.length) await this.deliverPending(connected);
  }

  /** Runs `tick()` every `ttlMs / 4` until `closeAll()` (servers with leases). */
  startLeaseTimer(): void {
    if (!this.lease.enabled || this.timer) return;
    this.timer = setInterval(
      () => void this.tick().catch((error) => this.ctx.log.error({ err: error }, 'session lease upkeep')),
      Math.max(1000, this.lease.ttlMs / 4),
    );
    this.timer.unref();
  }

  /** The running driver of a connection, if any. */
  get(connectionId: number): ChannelDriver | undefined {
    return this.drivers.get(connectionId)?.driver;
  }

  /** The driver of a connection whose session runs here and last reported CONNECTED, if any. */
  ready(connectionId: number): ChannelDriver | undefined {
    const entry = this.drivers.get(connectionId);
    return entry?.connected ? entry.driver : undefined;
  }

  /**
   * Starts (or restarts) the session of a connection on this node. With leases, it first takes the
   * connection's lease — by force unless `force: false` (server start, takeover), in which case a
   * session another live node runs is left there. @throws Error when the provider has no driver on
   * this node.
   */
  async start(companyId: number, connectionId: number, options: { force?: boolean } = {}): Promise<void> {
    const [row] = await this.ctx.db
      .select({ id: whatsapps.id, provider: whatsapps.provider })
      .from(whatsapps)
      .where(and(eq(whatsapps.companyId, companyId), eq(whatsapps.id, connectionId)));
    if (!row) throw new Error('connection not found');
    const factory = this.factories[row.provider];
    if (!factory) throw new Error(`no driver for provider ${row.provider}`);
    if (!(await this.acquire(companyId, connectionId, options.force ?? true))) return;
    await this.stop(companyId, connectionId, { silent: true, keepLease: true });
    const ref: ConnectionRef = { id: connectionId, companyId };
    const { events, settled } = this.eventsFor(ref);
    const driver = factory({ connectionId, companyId, events });
    this.drivers.set(connectionId, { driver, ref, connected: false });
    await driver.start();
    // The states reported while starting are stored before start() returns.
    await settled();
  }

  /**
   * Stops a session; `logout` removes the pairing and the stored session state; `silent` keeps the
   * connection's stored status untouched (restart, shutdown). The lease is released (whoever holds
   * it: a node still running the session stops at its next renewal) unless `keepLease`.
   */
  async stop(
    companyId: number,
    connectionId: number,
    options: { logout?: boolean; silent?: boolean; keepLease?: boolean } = {},
  ): Promise<void> {
    const entry = this.drivers.get(connectionId);
    this.drivers.delete(connectionId);
    if (entry) {
      await entry.driver
        .stop({ logout: options.logout })
        .catch((error) => this.ctx.log.warn({ err: error }, 'driver stop'));
    }
    if (this.lease.enabled && !options.keepLease) {
      await this.ctx.db.delete(whatsappLeases).where(eq(whatsappLeases.whatsappId, connectionId));
    }
    if (options.logout) {
      await this.ctx.db
        .delete(whatsappSessions)
        .where(and(eq(whatsappSessions.companyId, companyId), eq(whatsappSessions.whatsappId, connectionId)));
    }
    if (!options.silent) await this.setState({ id: connectionId, companyId }, 'DISCONNECTED', { qrcode: '' });
  }

  /** Starts every connection that is not DISCONNECTED and not run by another live node (server start). */
  async startAll(): Promise<void> {
    const rows = await this.ctx.db
      .select({ id: whatsapps.id, companyId: whatsapps.companyId })
      .from(whatsapps)
      .where(ne(whatsapps.status, 'DISCONNECTED'));
    await Promise.all(
      rows.map((r) =>
        this.start(r.companyId, r.id, { force: false }).catch((error) =>
          this.ctx.log.error({ err: error, connectionId: r.id }, 'session start failed'),
        ),
      ),
    );
  }

  /**
   * Stops every driver of this node without changing stored states (shutdown) and gives its leases
   * back, so another node takes the sessions over at once.
   */
  async closeAll(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    if (this.soon) clearImmediate(this.soon);
    this.soon = undefined;
    await Promise.all(
      [...this.drivers.values()].map(({ ref }) =>
        this.stop(ref.companyId, ref.id, { silent: true, keepLease: true }),
      ),
    );
    if (this.lease.enabled) {
      await this.ctx.db
        .delete(whatsappLeases)
        .where(eq(whatsappLeases.owner, this.lease.nodeId))
        .catch((error) => this.ctx.log.warn({ err: error }, 'lease release'));
      // The other nodes take the sessions over now rather than at their next upkeep.
      await this.ctx.db
        .execute(sql`select pg_notify(${LEASE_RELEASE_CHANNEL}, ${this.lease.nodeId})`)
        .catch((error) => this.ctx.log.warn({ err: error }, 'lease release notice'));
    }
  }

  /**
   * Runs the lease upkeep (`tick()`) as soon as possible, once however often it is asked before it
   * runs: another node gave its leases back. Only while the lease timer runs (servers; tests tick by
   * hand unless they start it).
   */
  tickSoon(): void {
    if (!this.timer || this.closing || this.soon) return;
    this.soon = setImmediate(() => {
      this.soon = undefined;
      void this.tick().catch((error) => this.ctx.log.error({ err: error }, 'session lease upkeep'));
    });
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
        const entry = this.drivers.get(ref.id);
        if (entry) entry.connected = state === 'CONNECTED';
        inOrder(() =>
          this.setState(ref, state, {
            number: info?.number,
            qrcode: state === 'CONNECTED' ? '' : undefined,
            reason: info?.reason ?? null,
          }),
        );
        // What waited for the session (ack 0) goes out now.
        if (state === 'CONNECTED' && this.pendingDelivery.length)
          inOrder(() => this.deliverPending([ref.id]));
      },
      message: async (message) => {
        await this.pipeline.ingest(ref, message);
      },
      ack: guard(({ providerId, ack }) => this.pipeline.ack(ref, providerId, ack)),
      edit: guard(({ providerId, body }) => this.pipeline.edit(ref, providerId, body)),
      delete: guard(({ providerId }) => this.pipeline.remove(ref, providerId)),
      contact: guard((update) => this.pipeline.contact(ref, update)),
      presence: guard((update) => this.pipeline.presence(ref, update)),
    };
    return { events, settled: () => states };
  }

  private async setState(
    ref: ConnectionRef,
    status: ConnectionState | undefined,
    extra: { qrcode?: string; number?: string; bumpRetries?: boolean; reason?: string | null },
  ): Promise<void> {
    await this.ctx.db
      .update(whatsapps)
      .set({
        ...(status ? { status } : {}),
        // A reported state replaces the reason of the previous one (none once connected).
        ...(status ? { statusReason: status === 'CONNECTED' ? null : (extra.reason ?? null) } : {}),
        ...(extra.qrcode !== undefined ? { qrcode: extra.qrcode } : {}),
        ...(extra.number ? { number: extra.number } : {}),
        ...(extra.bumpRetries ? { retries: sql`${whatsapps.retries} + 1` } : {}),
        ...(status === 'CONNECTED' ? { retries: 0 } : {}),
        updatedAt: sql`now()`,
      })
      .where(and(eq(whatsapps.companyId, ref.companyId), eq(whatsapps.id, ref.id)));
    const session = await findWhatsapp(this.ctx.db, ref.companyId, ref.id);
    if (session) {
      // The token only to admins, as in REST (`whatsappView`).
      this.ctx.realtime.toCompanyPerViewer(ref.companyId, 'whatsappSession', (viewer) => ({
        action: 'update',
        session: whatsappView(viewer, session),
      }));
    }
  }
}
