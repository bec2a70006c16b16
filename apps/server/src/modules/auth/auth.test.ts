import { ZAuthResponse } from '@zapdesk/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../../db/schema/index.js';
import {
  bearer,
  createCompany,
  createUser,
  setDueDate,
  TEST_PASSWORD,
  tokenFor,
} from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { dueDateWarningDays } from './auth-service.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_MAX: '5' });
});
afterAll(() => t.close());

const DAY = 86_400_000;

async function login(email: string, password = TEST_PASSWORD, ip = '10.0.0.1') {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ip,
  });
}

function refreshCookie(res: { cookies: { name: string; value: string }[] }) {
  return res.cookies.find((c) => c.name === 'jrt')?.value;
}

describe('POST /api/auth/login', () => {
  it('answers token and user with company, plan and settings, and sets an httpOnly SameSite refresh cookie', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId, { profile: 'admin' });
    const res = await login(user.email.toUpperCase(), TEST_PASSWORD, '10.1.0.1');
    expect(res.statusCode).toBe(200);
    const body = ZAuthResponse.parse(res.json());
    expect(body.user.id).toBe(user.id);
    expect(body.user.companyId).toBe(companyId);
    expect(body.user.company.plan?.useKanban).toBe(true);
    expect(body.user.company.settings.map((s) => s.key)).toContain('sendGreetingAccepted');
    expect(body.dueDateWarningDays).toBeNull();
    expect(JSON.stringify(body)).not.toContain('passwordHash');
    const cookie = res.cookies.find((c) => c.name === 'jrt');
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Strict');
    expect(cookie?.path).toBe('/api/auth');
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(user.email);
  });

  it('gives the same ERR_INVALID_CREDENTIALS for a wrong password and an unknown e-mail', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    const wrong = await login(user.email, 'not-the-password', '10.2.0.1');
    const unknown = await login('nobody@example.test', TEST_PASSWORD, '10.2.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses an expired company with its own code and the due date', async () => {
    const dueDate = new Date(Date.now() - DAY);
    const companyId = await createCompany(t.app, { dueDate });
    const user = await createUser(t.app, companyId);
    const res = await login(user.email, TEST_PASSWORD, '10.3.0.1');
    expect(res.statusCode).toBe(402);
    expect(res.json()).toEqual({ error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: dueDate.toISOString() });
    expect(refreshCookie(res)).toBeUndefined();
  });

  it('warns when fewer than 5 days remain', async () => {
    const companyId = await createCompany(t.app, { dueDate: new Date(Date.now() + 3 * DAY + 60_000) });
    const user = await createUser(t.app, companyId);
    const res = await login(user.email, TEST_PASSWORD, '10.4.0.1');
    expect(res.json().dueDateWarningDays).toBe(3);
    expect(dueDateWarningDays(new Date(Date.now() + 5 * DAY))).toBeNull();
    expect(dueDateWarningDays(new Date(Date.now() + 1 * DAY))).toBe(1);
    expect(dueDateWarningDays(null)).toBeNull();
  });

  it('rate-limits per e-mail across IPs and per IP across e-mails with 429', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    for (let i = 0; i < 5; i++)
      expect((await login(user.email, 'wrong', `10.5.${i}.1`)).statusCode).toBe(401);
    const limited = await login(user.email, TEST_PASSWORD, '10.5.9.9');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe('ERR_TOO_MANY_REQUESTS');

    for (let i = 0; i < 5; i++)
      expect((await login(`x${i}@example.test`, 'wrong', '10.6.0.1')).statusCode).toBe(401);
    const other = await createUser(t.app, companyId);
    expect((await login(other.email, TEST_PASSWORD, '10.6.0.1')).statusCode).toBe(429);
    expect((await login(other.email, TEST_PASSWORD, '10.6.0.2')).statusCode).toBe(200);
  });

  it('answers 400 naming the field for a bad body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'a@b.test' },
      remoteAddress: '10.7.0.1',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'password' });
  });
});

describe('refresh tokens', () => {
  it('rotate on every refresh; reusing a rotated token revokes the family', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    const first = refreshCookie(await login(user.email, TEST_PASSWORD, '10.8.0.1'))!;
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh_token',
      cookies: { jrt: first },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(ZAuthResponse.parse(refreshed.json()).user.id).toBe(user.id);
    const second = refreshCookie(refreshed)!;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);

    const stored = await t.app.ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(stored.map((r) => r.tokenHash)).not.toContain(first);

    const reuse = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh_token',
      cookies: { jrt: first },
    });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const afterTheft = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh_token',
      cookies: { jrt: second },
    });
    expect(afterTheft.statusCode).toBe(401);
  });

  it('answers 401 without a cookie and after logout', async () => {
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token' });
    expect(none.statusCode).toBe(401);
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    const res = await login(user.email, TEST_PASSWORD, '10.9.0.1');
    const cookie = refreshCookie(res)!;
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      cookies: { jrt: cookie },
      headers: { authorization: `Bearer ${res.json().token}` },
    });
    expect(out.statusCode).toBe(204);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh_token',
      cookies: { jrt: cookie },
    });
    expect(again.statusCode).toBe(401);
  });

  it('a new login revokes the older session of the same user', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    const older = refreshCookie(await login(user.email, TEST_PASSWORD, '10.10.0.1'))!;
    const newer = refreshCookie(await login(user.email, TEST_PASSWORD, '10.10.0.2'))!;
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: older } }))
        .statusCode,
    ).toBe(401);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: newer } }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses to refresh once the company has expired', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    const cookie = refreshCookie(await login(user.email, TEST_PASSWORD, '10.11.0.1'))!;
    await setDueDate(t.app, companyId, new Date(Date.now() - DAY));
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: cookie } }))
        .statusCode,
    ).toBe(401);
  });
});

describe('access tokens', () => {
  it('missing gives 401, expired or forged gives 403 ERR_SESSION_EXPIRED, a deleted user 401', async () => {
    const companyId = await createCompany(t.app);
    const user = await createUser(t.app, companyId);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/me' })).statusCode).toBe(401);
    const expired = await tokenFor(t.app, user, -10);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: `Bearer ${expired}` },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
    const forged = `${user.token.slice(0, -4)}AAAA`;
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `Bearer ${forged}` },
        })
      ).statusCode,
    ).toBe(403);
    const ok = await t.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(user) });
    expect(ok.statusCode).toBe(200);
  });
});
