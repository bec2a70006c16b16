import { describe, expect, it } from 'vitest';
import { RECURRENCE_MONTHS, ZCompanyBody, ZNewPassword, ZPlanBody, ZResetPasswordBody } from './accounts.js';

const issue = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.success ? undefined : result.error!.issues[0]!.message;

describe('accounts schemas', () => {
  it('new passwords need 8+ characters with a digit, a lowercase and an uppercase letter', () => {
    expect(issue(ZNewPassword.safeParse('Abcdef1'))).toBe('tooShort');
    expect(issue(ZNewPassword.safeParse('abcdefg1'))).toBe('weakPassword');
    expect(issue(ZNewPassword.safeParse('ABCDEFG1'))).toBe('weakPassword');
    expect(issue(ZNewPassword.safeParse('Abcdefgh'))).toBe('weakPassword');
    expect(issue(ZNewPassword.safeParse(`Aa1${'x'.repeat(48)}`))).toBe('tooLong');
    expect(ZNewPassword.safeParse('Abcdefg1').success).toBe(true);
  });

  it('reset codes drop spaces and dashes', () => {
    expect(
      ZResetPasswordBody.parse({ email: 'a@b.co', token: '1234 5678', password: 'Abcdefg1' }).token,
    ).toBe('12345678');
    expect(issue(ZResetPasswordBody.safeParse({ email: 'a@b.co', token: ' ', password: 'Abcdefg1' }))).toBe(
      'required',
    );
  });

  it('company due dates: empty is null, invalid is refused, and parsing the output again keeps it', () => {
    const base = { name: 'Loja', planId: 1 };
    expect(ZCompanyBody.parse({ ...base, dueDate: '' }).dueDate).toBeNull();
    for (const dueDate of ['amanhã', '99999-01-01', 'now', '0001-01-01', '2026-02-30']) {
      expect(ZCompanyBody.safeParse({ ...base, dueDate }).success, dueDate).toBe(false);
    }
    const once = ZCompanyBody.parse({ ...base, dueDate: '2030-02-01' });
    expect(once.dueDate).toBe('2030-02-01T00:00:00.000Z');
    expect(ZCompanyBody.parse(once)).toEqual(once);
    expect(once).toMatchObject({ status: true, campaignsEnabled: false, email: null, recurrence: null });
  });

  it('plan values have at most cents and limits stay within int4', () => {
    const plan = { name: 'P', value: 10.5, users: 1, connections: 0, queues: 0 };
    expect(ZPlanBody.parse(plan)).toMatchObject({ useKanban: false });
    expect(ZPlanBody.safeParse({ ...plan, value: 0.001 }).success).toBe(false);
    expect(ZPlanBody.safeParse({ ...plan, value: 19.99 }).success).toBe(true);
    expect(ZPlanBody.safeParse({ ...plan, users: 0 }).success).toBe(false);
  });

  it('Expire months per recurrence (document 3 section 9)', () => {
    expect(RECURRENCE_MONTHS).toEqual({ MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 });
  });
});
