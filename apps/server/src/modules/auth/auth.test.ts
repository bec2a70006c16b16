import { ZAuthResponse } from '@zapdesk/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { refreshTokens } from '../../db/schema/index.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { createCompany, createUser, setDueDate, TEST_PASSWORD, tokenFor } from '../../test/factories.js';
import { dueDateWarningDays, REFRESH_GRACE_SECONDS } from './auth-service.js';
import { hashRefreshToken } from './tokens.js';

useAppSuite({ LOGIN_RATE_MAX: '5', LOGIN_IP_DAILY_MAX: '12', LOGIN_ACCOUNT_DAILY_MAX: '7' });

const DAY = 86_400_000;

async function login(
  email: string,
  password = TEST_PASSWORD,
  ip = '10.0.0.1',
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress: ip,
    headers,
  });
}

/** Moves the rotation of `cookie` before the grace window, as if it happened a minute ago. */
async function pastGrace(cookie: string) {
  await t.app.ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now() - interval '${sql.raw(String(REFRESH_GRACE_SECONDS + 40))} seconds'` })
    .where(eq(refreshTokens.tokenHash, hashRefreshToken(cookie)));
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
  it('rotate on every refresh; reusing a rotated token after the grace window revokes the family', async () => {
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

    await pastGrace(first);
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
    const ok = await inject('GET', '/api/auth/me', user);
    expect(ok.statusCode).toBe(200);
  });
});

describe('sessions end at once', () => {
  async function signIn(email: string, ip: string) {
    const res = await login(email, TEST_PASSWORD, ip);
    expect(res.statusCode).toBe(200);
    return { token: res.json().token as string, cookie: refreshCookie(res)! };
  }
  const me = (token: string) =>
    t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } });
  const refreshWith = (cookie: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh_token', cookies: { jrt: cookie } });
  async function expectEnded(token: string) {
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: 'ERR_SESSION_EXPIRED' });
  }

  it('logout: the access token stops working', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    const session = await signIn(user.email, '10.20.0.1');
    expect((await me(session.token)).statusCode).toBe(200);
    const out = await t.app.inject({
      method: 'DELETE',
      url: '/api/auth/logout',
      cookies: { jrt: session.cookie },
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(out.statusCode).toBe(204);
    await expectEnded(session.token);
  });

  it('logout with only the access token ends that session and no other', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    const other = await tokenFor(t.app, user);
    expect((await me(user.token)).statusCode).toBe(200);
    const out = await inject('DELETE', '/api/auth/logout', user);
    expect(out.statusCode).toBe(204);
    await expectEnded(user.token);
    expect((await me(other)).statusCode).toBe(200);
  });

  it('refresh-token reuse after the grace window: every access token of the family stops working', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    const session = await signIn(user.email, '10.21.0.1');
    const refreshed = await refreshWith(session.cookie);
    expect(refreshed.statusCode).toBe(200);
    const newer = refreshed.json().token as string;
    expect((await me(session.token)).statusCode).toBe(200);
    expect((await me(newer)).statusCode).toBe(200);
    await pastGrace(session.cookie);
    expect((await refreshWith(session.cookie)).statusCode).toBe(401);
    await expectEnded(session.token);
    await expectEnded(newer);
    expect((await refreshWith(refreshCookie(refreshed)!)).statusCode).toBe(401);
  });

  it('a second sign-in ends the first session', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    const first = await signIn(user.email, '10.22.0.1');
    expect((await me(first.token)).statusCode).toBe(200);
    const second = await signIn(user.email, '10.22.0.2');
    await expectEnded(first.token);
    expect((await me(second.token)).statusCode).toBe(200);
  });

  it("an admin changing the user's password ends its sessions", async () => {
    const companyId = await createCompany(t.app);
    const admin = await createUser(t.app, companyId, { profile: 'admin' });
    const agent = await createUser(t.app, companyId);
    const session = await signIn(agent.email, '10.23.0.1');
    expect((await me(session.token)).statusCode).toBe(200);
    const put = await inject('PUT', `/api/users/${agent.id}`, admin, { password: 'another-secret-1' });
    expect(put.statusCode).toBe(200);
    await expectEnded(session.token);
    expect((await refreshWith(session.cookie)).statusCode).toBe(401);
    expect((await me(admin.token)).statusCode).toBe(200);
  });

  it('users changing their own password keep the current session and end the others', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    const other = await tokenFor(t.app, user);
    expect((await me(other)).statusCode).toBe(200);
    const put = await inject('PUT', `/api/users/${user.id}`, user, { password: 'another-secret-2' });
    expect(put.statusCode).toBe(200);
    expect((await me(user.token)).statusCode).toBe(200);
    await expectEnded(other);
  });

  it("a role change ends the user's sessions; other edits do not", async () => {
    const companyId = await createCompany(t.app);
    const admin = await createUser(t.app, companyId, { profile: 'admin' });
    const agent = await createUser(t.app, companyId);
    const rename = await inject('PUT', `/api/users/${agent.id}`, admin, { name: 'Renamed', profile: 'user' });
    expect(rename.statusCode).toBe(200);
    expect((await me(agent.token)).statusCode).toBe(200);
    const promote = await inject('PUT', `/api/users/${agent.id}`, admin, { profile: 'admin' });
    expect(promote.statusCode).toBe(200);
    await expectEnded(agent.token);
  });

  it('deleting the user ends its sessions', async () => {
    const companyId = await createCompany(t.app);
    const admin = await createUser(t.app, companyId, { profile: 'admin' });
    const agent = await createUser(t.app, companyId);
    expect((await me(agent.token)).statusCode).toBe(200);
    const del = await inject('DELETE', `/api/users/${agent.id}`, admin);
    expect(del.statusCode).toBe(204);
    await expectEnded(agent.token);
  });

  it('two refreshes racing with one cookie both succeed with the same new cookie; the session stays alive', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    const session = await signIn(user.email, '10.24.0.1');
    const [a, b] = await Promise.all([refreshWith(session.cookie), refreshWith(session.cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(refreshCookie(a)).toBeDefined();
    expect(refreshCookie(a)).toBe(refreshCookie(b));
    expect((await me(a.json().token)).statusCode).toBe(200);
    expect((await me(b.json().token)).statusCode).toBe(200);
    expect((await me(session.token)).statusCode).toBe(200);
    // Presented again later within the window, the old cookie still gets the family's live token.
    const late = await refreshWith(session.cookie);
    expect(late.statusCode).toBe(200);
    expect(refreshCookie(late)).toBe(refreshCookie(a));
    const next = await refreshWith(refreshCookie(a)!);
    expect(next.statusCode).toBe(200);
    expect((await me(next.json().token)).statusCode).toBe(200);
  });
});

describe('login limits count failures only', () => {
  it('12 successful sign-ins from one address are not limited', async () => {
    const companyId = await createCompany(t.app);
    const office = '10.30.0.1';
    for (let i = 0; i < 12; i++) {
      const user = await createUser(t.app, companyId);
      expect((await login(user.email, TEST_PASSWORD, office)).statusCode).toBe(200);
    }
    const same = await createUser(t.app, companyId);
    for (let i = 0; i < 12; i++)
      expect((await login(same.email, TEST_PASSWORD, office)).statusCode).toBe(200);
  });

  it('failures on one e-mail from address A lock it on A only, not from address B', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    for (let i = 0; i < 5; i++) expect((await login(user.email, 'wrong', '10.31.0.1')).statusCode).toBe(401);
    const locked = await login(user.email, TEST_PASSWORD, '10.31.0.1');
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ error: 'ERR_TOO_MANY_REQUESTS', retryAfter: expect.any(Number) });
    expect((await login(user.email, TEST_PASSWORD, '10.31.0.2')).statusCode).toBe(200);
  });

  it('a success clears the consecutive failures', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++)
        expect((await login(user.email, 'wrong', '10.32.0.1')).statusCode).toBe(401);
      expect((await login(user.email, TEST_PASSWORD, '10.32.0.1')).statusCode).toBe(200);
    }
  });

  it('limits failures per address per day over every e-mail', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    for (let i = 0; i < 12; i++)
      expect((await login(`guess-${i}@example.test`, 'wrong', '10.33.0.1')).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, '10.33.0.1')).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, '10.33.0.2')).statusCode).toBe(200);
  });

  it('a distributed guess at one account refuses unknown addresses only; its usual address still signs in', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    expect((await login(user.email, TEST_PASSWORD, '10.34.0.1')).statusCode).toBe(200);
    for (let i = 0; i < 7; i++)
      expect((await login(user.email, 'wrong', `10.34.1.${i}`)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, '10.34.2.1')).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, '10.34.0.1')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For by default: forged addresses get no extra attempts', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    for (let i = 0; i < 5; i++) {
      const forged = { 'x-forwarded-for': `203.0.113.${i + 1}` };
      expect((await login(user.email, 'wrong', '10.35.0.1', forged)).statusCode).toBe(401);
    }
    const res = await login(user.email, TEST_PASSWORD, '10.35.0.1', { 'x-forwarded-for': '203.0.113.99' });
    expect(res.statusCode).toBe(429);
  });
});
