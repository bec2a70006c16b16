import type { DatabaseHandle } from '../db/client.js';
import { NotifyListener, type NotifySubscriber } from './notify-listener.js';

/**
 * The NOTIFY channel of migration 0028 (company-cache-notify). Payload '<topic>:<companyId>' (that
 * company's entry of one cache), '<topic>:*' (the whole cache) or '*' (every cache).
 */
export const COMPANY_CACHE_CHANNEL = 'zapdesk_cache';

/** How long (ms) a cache is bypassed after this node sent a write it depends on (its NOTIFY comes at commit). */
const LOCAL_WRITE_BYPASS_MS = 2000;
/** An entry is read again after this long (ms) at the latest, whatever happens. */
const DEFAULT_TTL_MS = 60_000;
/** At most this many companies are kept per cache; beyond, the cache starts over. */
const MAX_ENTRIES = 20_000;

/** What a cache is made of: its topic, how to read a company's value, and what writes stale it. */
export interface CompanyCacheOptions<V> {
  /** The topic of its NOTIFY payloads (the triggers of migration 0028 name it). */
  topic: string;
  /** Reads a company's value from the database (a miss). */
  load: (companyId: number) => Promise<V>;
  /**
   * Statements (their SQL text) after which this node stops trusting the cache at once, before the
   * NOTIFY of their commit arrives: the writes to the tables the value is read from.
   */
  localWrite: RegExp;
  /** Longest life of an entry, ms (default 60 s). */
  ttlMs?: number;
}

/**
 * A per-node cache of one value per company (the inbound hooks' per-message
 * lookups), on the mechanism of the auth guard's cache (modules/auth/auth-cache.ts): entries are
 * dropped by the NOTIFY that database triggers send at the commit of any change they depend on, so
 * every node — and every writer, plain SQL included — invalidates without calling anything; this
 * node's own writes also bypass the cache at once until their NOTIFY has had time to arrive. While
 * the LISTEN connection is down, nothing is cached. A fill that raced with an invalidation is used
 * once, never stored; concurrent misses of one company share one read, also while it is bypassed.
 */
export class CompanyCache<V> {
  private readonly entries = new Map<number, { value: V; at: number }>();
  private readonly filling = new Map<number, { generation: number; value: Promise<V> }>();
  private generation = 0;
  private bypassUntil = 0;
  /** Counters for tests and metrics. */
  readonly stats = { hits: 0, misses: 0, invalidations: 0 };

  constructor(
    private readonly options: CompanyCacheOptions<V>,
    private readonly isListening: () => boolean,
  ) {}

  get topic(): string {
    return this.options.topic;
  }

  /** Whether cached answers may be used now. */
  get usable(): boolean {
    return this.isListening() && Date.now() >= this.bypassUntil;
  }

  /**
   * The company's value: cached when usable and fresh, else read and stored, unless the read raced
   * with an invalidation or began while the cache was not usable. Concurrent misses of a company
   * share one read (usable or not) unless something was invalidated since it began.
   */
  async get(companyId: number): Promise<V> {
    const usable = this.usable;
    const entry = usable ? this.entries.get(companyId) : undefined;
    if (entry && Date.now() - entry.at <= (this.options.ttlMs ?? DEFAULT_TTL_MS)) {
      this.stats.hits++;
      return entry.value;
    }
    this.stats.misses++;
    const pending = this.filling.get(companyId);
    if (pending && pending.generation === this.generation) return pending.value;
    const generation = this.generation;
    const value = this.options.load(companyId);
    this.filling.set(companyId, { generation, value });
    try {
      const loaded = await value;
      if (usable && generation === this.generation && this.usable) {
        if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
        this.entries.set(companyId, { value: loaded, at: Date.now() });
      }
      return loaded;
    } finally {
      if (this.filling.get(companyId)?.value === value) this.filling.delete(companyId);
    }
  }

  /** Drops a company's entry, or every entry with '*'. Normally called by the NOTIFY of the triggers. */
  invalidate(companyId: number | '*'): void {
    this.generation++;
    this.stats.invalidations++;
    if (companyId === '*') this.entries.clear();
    else this.entries.delete(companyId);
  }

  /** Sees a statement this node sends: a write the cache depends on bypasses and empties it. */
  noteStatement(text: string): void {
    if (!this.options.localWrite.test(text)) return;
    this.bypassUntil = Date.now() + LOCAL_WRITE_BYPASS_MS;
    this.invalidate('*');
  }
}

/**
 * The per-node company caches, one NotifySubscriber on COMPANY_CACHE_CHANNEL: a node adds it to its
 * NotifyListener (app.ts), which shares the LISTEN connection and statement observer with the auth
 * guard's cache. `define` the caches before they are used.
 */
export class CompanyCaches implements NotifySubscriber {
  readonly channel = COMPANY_CACHE_CHANNEL;
  private readonly caches = new Map<string, CompanyCache<unknown>>();
  private listening = false;
  private ownListener?: NotifyListener;

  /**
   * The cache of a topic on this hub: a new one, or the one already defined for the topic (one per
   * topic per node; a second definition's options are ignored, its load must read the same).
   */
  define<V>(options: CompanyCacheOptions<V>): CompanyCache<V> {
    const existing = this.caches.get(options.topic);
    if (existing) return existing as CompanyCache<V>;
    const cache = new CompanyCache<V>(options, () => this.listening);
    this.caches.set(options.topic, cache as CompanyCache<unknown>);
    return cache;
  }

  /** Whether every cache answers from memory now (listening, no local write in the last moments). */
  get usable(): boolean {
    return [...this.caches.values()].every((cache) => cache.usable);
  }

  /**
   * Listens on `database` through a NotifyListener of its own (resolves once the first LISTEN is done
   * or failed). A node does not call this: its app's NotifyListener carries the hub.
   */
  async start(database: DatabaseHandle): Promise<void> {
    this.ownListener = new NotifyListener().add(this);
    await this.ownListener.start(database);
  }

  /** Stops the listener of `start`; the caches stay off. */
  async stop(): Promise<void> {
    await this.ownListener?.stop();
    this.ownListener = undefined;
  }

  /** The LISTEN connection came up or went down: either way every cache starts over. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate('*');
  }

  /** A statement of this node: each cache bypasses itself when it writes what it depends on. */
  noteStatement(text: string): void {
    for (const cache of this.caches.values()) cache.noteStatement(text);
  }

  /** A NOTIFY on COMPANY_CACHE_CHANNEL (see `invalidate`). */
  notify(payload: string): void {
    this.invalidate(payload);
  }

  /** Applies a NOTIFY payload (see COMPANY_CACHE_CHANNEL); anything unknown empties every cache. */
  invalidate(payload: string): void {
    const at = payload.lastIndexOf(':');
    const topic = at < 0 ? payload : payload.slice(0, at);
    const target = at < 0 ? '' : payload.slice(at + 1);
    const cache = this.caches.get(topic);
    const id = Number(target);
    if (cache && target === '*') cache.invalidate('*');
    else if (cache && Number.isInteger(id) && target !== '') cache.invalidate(id);
    else for (const each of this.caches.values()) each.invalidate('*');
  }
}
