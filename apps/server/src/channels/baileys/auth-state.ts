/**
 * Baileys authentication state kept in the database: the
 * credentials and the signal key store of one connection, one `whatsapp_sessions` row per key,
 * each value serialised with Baileys' `BufferJSON` and encrypted with AES-256-GCM under the
 * session key (lib/secrets.ts). It replaces Baileys' `useMultiFileAuthState`.
 */
import crypto from 'node:crypto';
import {
  type AuthenticationCreds,
  type AuthenticationState,
  BufferJSON,
  initAuthCreds,
  proto,
  type SignalDataSet,
  type SignalDataTypeMap,
} from '@whiskeysockets/baileys';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { whatsappSessions } from '../../db/schema/index.js';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Rows per INSERT statement (5 parameters each, far below Postgres' 65,535 limit). */
const CHUNK = 500;
/** Row key of the credentials; signal keys are stored as `${type}/${id}`. */
const CREDS_KEY = 'creds';

/**
 * Encrypts a string with AES-256-GCM: a random 12-byte IV, then the 16-byte auth tag, then the
 * ciphertext, base64 encoded after a version prefix (`v1:`).
 * @throws Error when `key` is not 32 bytes.
 */
export function encryptValue(plain: string, key: Buffer): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
}

/**
 * Decrypts a value written by `encryptValue`.
 * @throws Error when the format is unknown, the key is wrong or the value was tampered with.
 */
export function decryptValue(stored: string, key: Buffer): string {
  const prefix = `${VERSION}:`;
  if (!stored.startsWith(prefix)) throw new Error('unknown session value format');
  const raw = Buffer.from(stored.slice(prefix.length), 'base64');
  if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('session value too short');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
    'utf8',
  );
}

export interface DatabaseAuthStateOptions {
  db: Database;
  companyId: number;
  /** The connection (whatsapps.id) whose session this is. */
  connectionId: number;
  /** 32-byte AES-256-GCM key (Secrets.sessionKey). */
  sessionKey: Buffer;
}

export interface DatabaseAuthState {
  /** Give this to Baileys' `makeWASocket({ auth })`. */
  state: AuthenticationState;
  /** Writes the current credentials (call on `creds.update`). */
  saveCreds(): Promise<void>;
  /** Deletes every stored row of the connection (after a logout); the in-memory state is stale after it. */
  clear(): Promise<void>;
}

/**
 * Loads (or initialises, when nothing is stored) the Baileys auth state of one connection.
 * Key-store writes of many keys run in one transaction, with one INSERT ... ON CONFLICT per 500 rows.
 * @throws Error when a stored value cannot be decrypted (wrong session key or corrupted row).
 */
export async function loadDatabaseAuthState(options: DatabaseAuthStateOptions): Promise<DatabaseAuthState> {
  const { db, companyId, connectionId, sessionKey } = options;
  const encode = (value: unknown) => encryptValue(JSON.stringify(value, BufferJSON.replacer), sessionKey);
  const decode = (value: string): unknown => JSON.parse(decryptValue(value, sessionKey), BufferJSON.reviver);
  const scope = eq(whatsappSessions.whatsappId, connectionId);

  const readRows = async (keys: string[]): Promise<Map<string, unknown>> => {
    const found = new Map<string, unknown>();
    for (let i = 0; i < keys.length; i += CHUNK) {
      const rows = await db
        .select({ key: whatsappSessions.key, value: whatsappSessions.value })
        .from(whatsappSessions)
        .where(and(scope, inArray(whatsappSessions.key, keys.slice(i, i + CHUNK))));
      for (const row of rows) found.set(row.key, decode(row.value));
    }
    return found;
  };

  const writeRows = async (upserts: { key: string; value: string }[], deletes: string[]) => {
    if (upserts.length === 0 && deletes.length === 0) return;
    await db.transaction(async (tx) => {
      for (let i = 0; i < upserts.length; i += CHUNK) {
        await tx
          .insert(whatsappSessions)
          .values(upserts.slice(i, i + CHUNK).map((row) => ({ companyId, whatsappId: connectionId, ...row })))
          .onConflictDoUpdate({
            target: [whatsappSessions.whatsappId, whatsappSessions.key],
            set: { value: sql`excluded.value`, updatedAt: sql`now()` },
          });
      }
      for (let i = 0; i < deletes.length; i += CHUNK) {
        await tx
          .delete(whatsappSessions)
          .where(and(scope, inArray(whatsappSessions.key, deletes.slice(i, i + CHUNK))));
      }
    });
  };

  const stored = (await readRows([CREDS_KEY])).get(CREDS_KEY) as AuthenticationCreds | undefined;
  const creds: AuthenticationCreds = stored ?? initAuthCreds();

  const state: AuthenticationState = {
    creds,
    keys: {
      get: async <T extends keyof SignalDataTypeMap>(type: T, ids: string[]) => {
        const rows = await readRows(ids.map((id) => `${type}/${id}`));
        const result: { [id: string]: SignalDataTypeMap[T] } = {};
        for (const id of ids) {
          let value = rows.get(`${type}/${id}`);
          if (value === undefined) continue;
          if (type === 'app-state-sync-key') {
            value = proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
          }
          result[id] = value as SignalDataTypeMap[T];
        }
        return result;
      },
      set: async (data: SignalDataSet) => {
        const upserts: { key: string; value: string }[] = [];
        const deletes: string[] = [];
        for (const [type, entries] of Object.entries(data)) {
          for (const [id, value] of Object.entries(entries ?? {})) {
            const key = `${type}/${id}`;
            if (value === null || value === undefined) deletes.push(key);
            else upserts.push({ key, value: encode(value) });
          }
        }
        await writeRows(upserts, deletes);
      },
    },
  };

  return {
    state,
    saveCreds: () => writeRows([{ key: CREDS_KEY, value: encode(creds) }], []),
    clear: () => clearDatabaseAuthState({ db, companyId, connectionId }),
  };
}

/** Deletes every stored session row of a connection (credentials and keys); no-op when none. */
export async function clearDatabaseAuthState(
  options: Omit<DatabaseAuthStateOptions, 'sessionKey'>,
): Promise<void> {
  const { db, companyId, connectionId } = options;
  await db
    .delete(whatsappSessions)
    .where(and(eq(whatsappSessions.whatsappId, connectionId), eq(whatsappSessions.companyId, companyId)));
}
