/**
 * Password reset (document 3 sections 2, 5 and 7): the code travels by real SMTP
 * to a server started here; it is single use, 30 minutes, limited per e-mail and per address,
 * refused with one generic error when wrong, and never written to the logs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets, users } from '../../db/schema/index.js';
import { outboxDir } from '../../lib/mailer.js';
import { createCompany, createUser, injectAs, login, TEST_PASSWORD } from '../../test/factories.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { redactSecretUrl } from './routes.js';

interface Received {
  to: string[];
  raw: string;
}
const inbox: Received[] = [];
let smtp: SMTPServer;
let t: TestApp;
const inject = injectAs(() => t.app);
let logs = '';
let ipSeq = 0;
/** A fresh client address per call site, so the per-address limit is tested on its own. */
const nextIp = () => `10.0.${Math.floor(++ipSeq / 250)}.${(ipSeq % 250) + 1}`;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        raw += chunk;
      });
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as { port: number }).port;
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  t = await createTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${port}`, PASSWORD_RESET_IP_MAX: '30' },
    {},
    { logger: { level: 'trace', stream } },
  );
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const post = (
  url: string,
  options: { payload?: object; ip?: string; headers?: Record<string, string> } = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: options.ip ?? nextIp(),
    headers: options.headers,
    ...(options.payload ? { payload: options.payload } : {}),
  });

/** Asks for a code and answers it as the mail carried it. */
async function requestCode(email: string, headers?: Record<string, string>): Promise<string> {
  const before = inbox.length;
  const res = await post(`/api/forgetpassword/${encodeURIComponent(email)}`, { headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json()).toEqual({ status: 'ok' });
  expect(inbox.length).toBe(before + 1);
  const mail = inbox.at(-1)!;
  expect(mail.to).toEqual([email.toLowerCase()]);
  return /^(\d{8})\r?$/m.exec(mail.raw)![1]!;
}

const reset = (email: string, token: string, password: string, ip?: string) =>
  post(`/api/resetpasswords/${encodeURIComponent(email)}/${token}/${encodeURIComponent(password)}`, { ip });

async function newUser(options: { language?: string } = {}) {
  const companyId = await createCompany(t.app);
  const user = await createUser(t.app, companyId, { profile: 'admin' });
  if (options.language)
    await t.app.ctx.db.update(users).set({ language: options.language }).where(eq(users.id, user.id));
  return user;
}

describe('POST /api/forgetpassword then /api/resetpasswords', () => {
  it('mails a code that sets the new password once, ends the sessions and is stored only hashed', async () => {
    const user = await newUser();
    expect((await inject('GET', '/api/auth/me', user)).statusCode).toBe(200);
    const code = await requestCode(user.email);
    expect(inbox.at(-1)!.raw).toContain('Ol=C3=A1');
    const [stored] = await t.app.ctx.db
      .select()
      .from(passwordResets)
      .where(eq(passwordResets.userId, user.id));
    expect(stored!.codeHash).not.toContain(code);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(stored!.expiresAt.getTime() - Date.now()).toBeLessThanOrEqual(30 * 60_000 + 5000);

    expect((await reset(user.email, code, 'NovaSenha1')).statusCode).toBe(200);
    expect((await login(t.app, user.email, 'NovaSenha1')).statusCode).toBe(200);
    expect((await login(t.app, user.email, TEST_PASSWORD)).statusCode).toBe(401);
    // The session that was open before the reset has ended.
    expect((await inject('GET', '/api/auth/me', user)).statusCode).toBe(401);

    // Used once: the same code cannot set another password.
    const again = await reset(user.email, code, 'OutraSenha2');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    expect((await login(t.app, user.email, 'OutraSenha2')).statusCode).toBe(401);
    expect((await login(t.app, user.email, 'NovaSenha1')).statusCode).toBe(200);
  });

  it('refuses a wrong, expired, superseded or unknown code with one error and keeps the password', async () => {
    const user = await newUser();
    const first = await requestCode(user.email);
    const code = await requestCode(user.email);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    for (const [email, token] of [
      [user.email, wrong],
      [user.email, first === code ? wrong : first],
      ['nobody@example.test', code],
    ] as const) {
      const res = await reset(email, token, 'NovaSenha1');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    }
    expect((await login(t.app, user.email, TEST_PASSWORD)).statusCode).toBe(200);
    // Positive control: the live code still works after wrong tries.
    expect((await reset(user.email, code, 'NovaSenha1')).statusCode).toBe(200);

    const late = await requestCode(user.email);
    await t.app.ctx.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.userId, user.id));
    expect((await reset(user.email, late, 'Expirada3')).json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    expect((await login(t.app, user.email, 'NovaSenha1')).statusCode).toBe(200);
  });

  it('kills a code after five wrong tries', async () => {
    const user = await newUser();
    const code = await requestCode(user.email);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    for (let i = 0; i < 5; i++) expect((await reset(user.email, wrong, 'NovaSenha1')).statusCode).toBe(400);
    expect((await reset(user.email, code, 'NovaSenha1')).json()).toEqual({ error: 'ERR_INVALID_RESET_CODE' });
    expect((await login(t.app, user.email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('applies the new-password rules and keeps the code for a valid try', async () => {
    const user = await newUser();
    const code = await requestCode(user.email);
    for (const weak of ['Curta1', 'semmaiuscula1', 'SEMMINUSCULA1', 'SemDigitos', 'A1b'.repeat(20)]) {
      const res = await reset(user.email, code, weak);
      expect(res.statusCode, weak).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'password' });
    }
    expect((await reset(user.email, code, 'Forte123')).statusCode).toBe(200);
  });

  it('accepts the three values in a JSON body', async () => {
    const user = await newUser();
    const before = inbox.length;
    expect((await post('/api/forgetpassword', { payload: { email: user.email } })).statusCode).toBe(200);
    const code = /^(\d{8})\r?$/m.exec(inbox[before]!.raw)![1]!;
    const res = await post('/api/resetpasswords', {
      payload: { email: user.email.toUpperCase(), token: code, password: 'Corpo123' },
    });
    expect(res.statusCode).toBe(200);
    expect((await login(t.app, user.email, 'Corpo123')).statusCode).toBe(200);
  });

  it('answers 404 for an unknown e-mail (the client says so) and sends nothing', async () => {
    const before = inbox.length;
    const res = await post('/api/forgetpassword/ninguem@example.test');
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('ERR_NO_USER_FOUND');
    expect(inbox.length).toBe(before);
  });

  it("writes the mail in the user's language, else the browser's, else Portuguese", async () => {
    await requestCode((await newUser({ language: 'en' })).email, { 'accept-language': 'es' });
    expect(inbox.at(-1)!.raw).toContain('Subject: Zapdesk: your password reset code');
    await requestCode((await newUser()).email, { 'accept-language': 'es-ES,es;q=0.9' });
    expect(inbox.at(-1)!.raw).toContain('Hola,');
    await requestCode((await newUser()).email, { 'accept-language': 'de' });
    expect(inbox.at(-1)!.raw).toContain('Ol=C3=A1,');
  });
});

describe('limits', () => {
  it('allows 3 codes per e-mail per hour, from any address', async () => {
    const user = await newUser();
    for (let i = 0; i < 3; i++) await requestCode(user.email);
    const res = await post(`/api/forgetpassword/${user.email}`);
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toBe('ERR_TOO_MANY_REQUESTS');
    // Another e-mail is not affected (positive control).
    await requestCode((await newUser()).email);
  });

  it('allows PASSWORD_RESET_IP_MAX calls per address per hour, over every e-mail and kind', async () => {
    const ip = '192.0.2.77';
    const user = await newUser();
    for (let i = 0; i < 30; i++) {
      const res = await post('/api/resetpasswords', {
        ip,
        payload: { email: user.email, token: '12345678', password: 'NovaSenha1' },
      });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await post(`/api/forgetpassword/${user.email}`, { ip });
    expect(blocked.statusCode).toBe(429);
    expect((await post(`/api/forgetpassword/${user.email}`, { ip: '192.0.2.78' })).statusCode).toBe(200);
  });
});

describe('secrets stay out of the logs', () => {
  it('request logs show the reset paths redacted, and neither the code nor the password appear', async () => {
    const user = await newUser();
    const code = await requestCode(user.email);
    expect((await reset(user.email, code, 'Logada123')).statusCode).toBe(200);
    expect(logs).toContain('/api/resetpasswords/[redacted]');
    expect(logs).toContain('/api/forgetpassword/[redacted]');
    expect(logs).not.toContain(code);
    expect(logs).not.toContain('Logada123');
    expect(logs).not.toContain(encodeURIComponent(user.email));
    expect(redactSecretUrl('/api/resetpasswords/a%40b.co/123/Senha?x=1')).toBe(
      '/api/resetpasswords/[redacted]?x=1',
    );
  });
});

describe('without SMTP_URL', () => {
  it('writes the mail to DATA_DIR/outbox and logs where, not what', async () => {
    let outLogs = '';
    const stream = new Writable({
      write(chunk, _encoding, done) {
        outLogs += chunk.toString();
        done();
      },
    });
    const local = await createTestApp({}, {}, { logger: { level: 'info', stream } });
    try {
      const companyId = await createCompany(local.app);
      const user = await createUser(local.app, companyId);
      const res = await local.app.inject({ method: 'POST', url: `/api/forgetpassword/${user.email}` });
      expect(res.statusCode).toBe(200);
      const dir = outboxDir(local.config);
      const files = fs.readdirSync(dir);
      expect(files).toHaveLength(1);
      const mail = fs.readFileSync(path.join(dir, files[0]!), 'utf8');
      expect(mail).toContain(`To: ${user.email}`);
      const code = /^(\d{8})$/m.exec(mail)![1]!;
      expect(outLogs).toContain(path.join(dir, files[0]!));
      expect(outLogs).not.toContain(code);
      const done = await local.app.inject({
        method: 'POST',
        url: '/api/resetpasswords',
        payload: { email: user.email, token: code, password: 'Caixa123' },
      });
      expect(done.statusCode).toBe(200);
    } finally {
      await local.close();
    }
  });
});
