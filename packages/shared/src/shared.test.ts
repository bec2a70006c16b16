import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_STATUS } from './errors.js';
import { can } from './permissions.js';
import { companyChannel, userRoom } from './realtime.js';
import { ZSignupBody } from './schemas/auth.js';
import { ZCreateUserBody, ZUpdateUserBody } from './schemas/users.js';
import { isValidSettingValue } from './settings.js';

describe('permissions', () => {
  it('admins hold every rule, users none', () => {
    expect(can('admin', 'tickets-manager:showall')).toBe(true);
    expect(can('admin', 'contacts-page:deleteContact')).toBe(true);
    expect(can('user', 'tickets-manager:showall')).toBe(false);
    expect(can('user', 'user-modal:editProfile')).toBe(false);
    expect(can(undefined, 'dashboard:view')).toBe(false);
  });
});

describe('user schemas', () => {
  const messageOf = (result: {
    success: boolean;
    error?: { issues: { path: PropertyKey[]; message: string }[] };
  }) => result.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`);

  it('use the spec bounds and message keys', () => {
    expect(messageOf(ZCreateUserBody.safeParse({ name: 'A', email: 'a@b.co', password: 'abcde' }))).toEqual([
      'name:tooShort',
    ]);
    expect(messageOf(ZCreateUserBody.safeParse({ name: 'Ab', email: 'x', password: 'abcde' }))).toEqual([
      'email:invalidEmail',
    ]);
    expect(
      messageOf(ZCreateUserBody.safeParse({ name: 'Ab', email: 'a@b.co', password: 'x'.repeat(51) })),
    ).toEqual(['password:tooLong']);
    expect(messageOf(ZCreateUserBody.safeParse({ email: 'a@b.co', password: 'abcde' }))).toEqual([
      'name:required',
    ]);
    expect(ZCreateUserBody.parse({ name: ' Ana ', email: 'a@b.co', password: 'abcde' })).toMatchObject({
      name: 'Ana',
      profile: 'user',
      allTicket: 'desabled',
      queueIds: [],
    });
  });

  it('let an update keep the password with an empty string', () => {
    expect(ZUpdateUserBody.safeParse({ password: '' }).success).toBe(true);
    expect(ZUpdateUserBody.safeParse({ password: 'abc' }).success).toBe(false);
  });
});

describe('signup schema', () => {
  it('keeps only the digits of the phone, at most 11', () => {
    expect(
      ZSignupBody.parse({ name: 'Loja', email: 'l@x.co', password: 'abcde', phone: '(11) 98765-4321' }).phone,
    ).toBe('11987654321');
    expect(
      ZSignupBody.safeParse({ name: 'Loja', email: 'l@x.co', password: 'abcde', phone: '(11) 98765-43210' })
        .success,
    ).toBe(false);
  });
});

describe('catalogue and channels', () => {
  it('gives every error code an HTTP status', () => {
    expect(ERROR_CODES).toContain('ERR_OTHER_OPEN_TICKET');
    for (const code of ERROR_CODES) expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
  });

  it('names channels and rooms as the spec does', () => {
    expect(companyChannel(7, 'appMessage')).toBe('company-7-appMessage');
    expect(userRoom(7, 3)).toBe('company-7-user-3');
  });

  it('accepts only the values a setting allows', () => {
    expect(isValidSettingValue('scheduleType', 'queue')).toBe(true);
    expect(isValidSettingValue('scheduleType', 'enabled')).toBe(false);
    expect(isValidSettingValue('userRating', 'enabled')).toBe(true);
  });
});
