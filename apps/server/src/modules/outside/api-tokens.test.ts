/**
 * External-API tokens (docs/security.md, "Secrets and tokens"): made by the server, unique
 * across the platform, replaced by an admin, and wrong guesses limited per address.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { whatsapps } from '../../db/schema/index.js';
import { bearer, createSimulatorConnection, customerNumber, type TestUser } from '../../test/factories.js';
import { a, b, t, useTenantPairSuite } from '../../test/tenant-pair-suite.js';
import { API_TOKEN_FAILURES_MAX } from './token-limiter.js';

let aConnection: number;
let bConnection: number;

useTenantPairSuite();
beforeAll(async () => {
  aConnection = await createSimulatorConnection(t.app, a.admin);
  bConnection = await createSimulatorConnection(t.app, b.admin);
});

/** POST /api/messages/send with `token` from address `ip`. */
const send = (token: string, ip: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    remoteAddress: ip,
    headers: { authorization: `Bearer ${token}` },
    payload: { number: customerNumber(), body: 'Pedido confirmado' },
  });

const call = (user: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(user), ...(payload ? { payload } : {}) });

const tokenOf = async (user: TestUser, id: number) =>
  (await call(user, 'GET', `/api/whatsapp/${id}`)).json().token as string;

describe('external-API tokens', () => {
  it('are made by the server (256 random bits); a token the client sends on save is ignored', async () => {
    const res = await call(a.admin, 'POST', '/api/whatsapp', {
      name: 'Loja',
      provider: 'simulator',
      token: 'x',
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as number;
    const token = await tokenOf(a.admin, id);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.json().token).toBe(token);
    const put = await call(a.admin, 'PUT', `/api/whatsapp/${id}`, { name: 'Loja 2', token: 'y' });
    expect(put.statusCode, put.body).toBe(200);
    expect(await tokenOf(a.admin, id)).toBe(token);
    expect((await send('x', '198.51.100.1')).statusCode).toBe(401);
    expect((await send('y', '198.51.100.1')).statusCode).toBe(401);
    // Positive control: the server's token works.
    expect((await send(token, '198.51.100.1')).statusCode).toBe(200);
  });

  it("are unique: a company cannot take another's token, and the database refuses a shared one", async () => {
    const bToken = await tokenOf(b.admin, bConnection);
    expect((await send(bToken, '198.51.100.2')).statusCode).toBe(200);
    const put = await call(a.admin, 'PUT', `/api/whatsapp/${aConnection}`, { token: bToken });
    expect(put.statusCode, put.body).toBe(200);
    expect(await tokenOf(a.admin, aConnection)).not.toBe(bToken);
    // B's integration keeps working, as B.
    const still = await send(bToken, '198.51.100.2');
    expect(still.statusCode, still.body).toBe(200);
    await expect(
      t.app.ctx.db.update(whatsapps).set({ token: bToken }).where(eq(whatsapps.id, aConnection)),
    ).rejects.toThrow();
  });

  it('are replaced by an admin: the old one stops working, the new one works; agents and other companies cannot', async () => {
    const old = await tokenOf(a.admin, aConnection);
    expect((await send(old, '198.51.100.3')).statusCode).toBe(200);
    expect((await call(a.agent, 'POST', `/api/whatsapp/${aConnection}/token`)).statusCode).toBe(403);
    const other = await call(b.admin, 'POST', `/api/whatsapp/${aConnection}/token`);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe('ERR_NO_WAPP_FOUND');
    expect(await tokenOf(a.admin, aConnection)).toBe(old);

    const res = await call(a.admin, 'POST', `/api/whatsapp/${aConnection}/token`);
    expect(res.statusCode, res.body).toBe(200);
    const fresh = res.json().token as string;
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(fresh).not.toBe(old);
    expect(await tokenOf(a.admin, aConnection)).toBe(fresh);
    expect((await send(old, '198.51.100.3')).statusCode).toBe(401);
    expect((await send(fresh, '198.51.100.3')).statusCode).toBe(200);
  });

  it('wrong guesses are limited per address (429 past the limit); a right token elsewhere still works', async () => {
    const guesser = '203.0.113.7';
    const codes: number[] = [];
    for (let i = 0; i < 150; i++) {
      const res = await send(`guess-${i}-0123456789abcdefghijklmnopqrstuvwxyz`, guesser);
      codes.push(res.statusCode);
      if (res.statusCode === 429) expect(res.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    }
    expect(codes.slice(0, API_TOKEN_FAILURES_MAX).every((c) => c === 401)).toBe(true);
    expect(codes.slice(API_TOKEN_FAILURES_MAX).every((c) => c === 429)).toBe(true);
    const locked = await send('no-token-at-all', guesser);
    expect(locked.json().retryAfter).toBeGreaterThan(0);
    // A missing token counts as a wrong one.
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/messages/send',
      remoteAddress: guesser,
      payload: { number: customerNumber(), body: 'x' },
    });
    expect(missing.statusCode).toBe(429);

    const token = await tokenOf(b.admin, bConnection);
    // A locked address learns nothing, not even from a right token.
    expect((await send(token, guesser)).statusCode).toBe(429);
    // Positive control: the right token from another address works.
    const ok = await send(token, '203.0.113.8');
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
