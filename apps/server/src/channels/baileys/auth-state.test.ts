import crypto from 'node:crypto';
import { initAuthCreds, proto } from '@whiskeysockets/baileys';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whatsappSessions, whatsapps } from '../../db/schema/index.js';
import { createCompany } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { decryptValue, encryptValue, loadDatabaseAuthState } from './auth-state.js';

let testApp: TestApp;
let companyId: number;
const key = crypto.randomBytes(32);

async function createConnection(name = `Conn ${crypto.randomUUID()}`): Promise<number> {
  const [row] = await testApp.app.ctx.db
    .insert(whatsapps)
    .values({ companyId, name })
    .returning({ id: whatsapps.id });
  return row!.id;
}

const load = (connectionId: number, sessionKey = key) =>
  loadDatabaseAuthState({ db: testApp.app.ctx.db, companyId, connectionId, sessionKey });

const rowsOf = (connectionId: number) =>
  testApp.app.ctx.db.select().from(whatsappSessions).where(eq(whatsappSessions.whatsappId, connectionId));

beforeAll(async () => {
  testApp = await createTestApp();
  companyId = await createCompany(testApp.app);
});
afterAll(async () => {
  await testApp.close();
});

describe('encryptValue / decryptValue', () => {
  it('round-trips and uses a fresh IV each time', () => {
    const a = encryptValue('hello', key);
    const b = encryptValue('hello', key);
    expect(a).not.toBe(b);
    expect(decryptValue(a, key)).toBe('hello');
  });

  it('throws with the wrong key or a tampered value', () => {
    const stored = encryptValue('secret', key);
    expect(() => decryptValue(stored, crypto.randomBytes(32))).toThrow();
    const raw = Buffer.from(stored.slice(3), 'base64');
    raw[raw.length - 1]! ^= 1;
    expect(() => decryptValue(`v1:${raw.toString('base64')}`, key)).toThrow();
    expect(() => decryptValue('plain', key)).toThrow(/format/);
  });
});

describe('loadDatabaseAuthState', () => {
  it('initialises fresh creds, then round-trips creds and keys of every shape', async () => {
    const connectionId = await createConnection();
    const first = await load(connectionId);
    expect(first.state.creds.registered).toBe(false);
    first.state.creds.me = { id: '5511999990001:3@s.whatsapp.net', name: 'Zap' };
    await first.saveCreds();

    const preKey = { public: crypto.randomBytes(32), private: crypto.randomBytes(32) };
    const syncKey = proto.Message.AppStateSyncKeyData.fromObject({
      keyData: crypto.randomBytes(32),
      timestamp: 1_700_000_000,
    });
    await first.state.keys.set({
      'pre-key': { '1': preKey, '2': preKey },
      session: { '5511999990001.0': crypto.randomBytes(64) },
      'app-state-sync-key': { AAAA: syncKey },
      'lid-mapping': { '5511999990001': '123456789' },
    });

    const second = await load(connectionId);
    expect(second.state.creds.me?.id).toBe('5511999990001:3@s.whatsapp.net');
    expect(Buffer.from(second.state.creds.noiseKey.private)).toEqual(
      Buffer.from(first.state.creds.noiseKey.private),
    );
    const preKeys = await second.state.keys.get('pre-key', ['1', '2', '3']);
    expect(Object.keys(preKeys).sort()).toEqual(['1', '2']);
    expect(Buffer.from(preKeys['1']!.public)).toEqual(preKey.public);
    const sync = await second.state.keys.get('app-state-sync-key', ['AAAA']);
    expect(sync.AAAA).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
    expect(Buffer.from(sync.AAAA!.keyData!)).toEqual(Buffer.from(syncKey.keyData!));
    expect(await second.state.keys.get('lid-mapping', ['5511999990001'])).toEqual({
      '5511999990001': '123456789',
    });

    await second.state.keys.set({ 'pre-key': { '1': null } });
    expect(Object.keys(await second.state.keys.get('pre-key', ['1', '2']))).toEqual(['2']);
  });

  it('stores ciphertext only, and a wrong key cannot load it', async () => {
    const connectionId = await createConnection();
    const state = await load(connectionId);
    state.state.creds.me = { id: '5511988887777@s.whatsapp.net', name: 'Visible name' };
    await state.saveCreds();
    const rows = await rowsOf(connectionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.companyId).toBe(companyId);
    expect(rows[0]!.value).toMatch(/^v1:/);
    expect(rows[0]!.value).not.toContain('5511988887777');
    expect(rows[0]!.value).not.toContain('Visible name');
    await expect(load(connectionId, crypto.randomBytes(32))).rejects.toThrow();
  });

  it('writes many keys at once and clear() removes every row of the connection', async () => {
    const connectionId = await createConnection();
    const state = await load(connectionId);
    await state.saveCreds();
    const many: Record<string, { public: Buffer; private: Buffer }> = {};
    for (let i = 0; i < 1200; i++)
      many[String(i)] = { public: Buffer.alloc(32, i), private: Buffer.alloc(32, 1) };
    await state.state.keys.set({ 'pre-key': many });
    expect(await rowsOf(connectionId)).toHaveLength(1201);
    const loaded = await state.state.keys.get('pre-key', Object.keys(many));
    expect(Object.keys(loaded)).toHaveLength(1200);

    await state.clear();
    expect(await rowsOf(connectionId)).toHaveLength(0);
    const fresh = await load(connectionId);
    expect(fresh.state.creds.me).toBeUndefined();
  });

  it('keeps connections apart', async () => {
    const a = await load(await createConnection());
    const bId = await createConnection();
    const b = await load(bId);
    await a.state.keys.set({ session: { shared: Buffer.from('a') } });
    expect(await b.state.keys.get('session', ['shared'])).toEqual({});
    await b.state.keys.set({ session: { shared: Buffer.from('b') } });
    expect(Buffer.from((await a.state.keys.get('session', ['shared'])).shared!)).toEqual(Buffer.from('a'));
    await a.clear();
    expect(await rowsOf(bId)).toHaveLength(1);
  });

  it('accepts fresh creds from initAuthCreds unchanged through BufferJSON', async () => {
    const connectionId = await createConnection();
    const state = await load(connectionId);
    const creds = initAuthCreds();
    Object.assign(state.state.creds, creds);
    await state.saveCreds();
    const again = await load(connectionId);
    expect(again.state.creds.registrationId).toBe(creds.registrationId);
    expect(Buffer.from(again.state.creds.signedPreKey.signature)).toEqual(
      Buffer.from(creds.signedPreKey.signature),
    );
  });
});
