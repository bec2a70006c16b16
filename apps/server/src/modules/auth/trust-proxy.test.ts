import { describe, expect, it } from 'vitest';
import { t, useAppSuite } from '../../test/app-suite.js';
import { createCompany, createUser, TEST_PASSWORD } from '../../test/factories.js';

const PROXY = '10.40.0.1';
useAppSuite({ LOGIN_RATE_MAX: '3', TRUST_PROXY: `${PROXY}, 10.50.0.0/16` });

const login = (email: string, password: string, remoteAddress: string, forwardedFor: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password },
    remoteAddress,
    headers: { 'x-forwarded-for': forwardedFor },
  });

describe('TRUST_PROXY', () => {
  it('honours X-Forwarded-For from a trusted proxy: each client has its own login limits', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, 'wrong', PROXY, '203.0.113.5')).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, PROXY, '203.0.113.5')).statusCode).toBe(429);
    expect((await login(user.email, TEST_PASSWORD, PROXY, '203.0.113.6')).statusCode).toBe(200);
    // A proxy named by its CIDR.
    expect((await login(user.email, TEST_PASSWORD, '10.50.3.4', '203.0.113.7')).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For from any other sender', async () => {
    const user = await createUser(t.app, await createCompany(t.app));
    for (let i = 0; i < 3; i++)
      expect((await login(user.email, 'wrong', '10.41.0.1', `198.51.100.${i}`)).statusCode).toBe(401);
    expect((await login(user.email, TEST_PASSWORD, '10.41.0.1', '198.51.100.200')).statusCode).toBe(429);
  });
});
