import { DEFAULT_COMPANY_SCHEDULES, ZCompany } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, injectAs } from '../../test/factories.js';
import { a, b, t, useTenantPairSuite } from '../../test/tenant-pair-suite.js';

useTenantPairSuite();
const inject = injectAs(() => t.app);

const week = DEFAULT_COMPANY_SCHEDULES.map((row) =>
  row.weekdayEn === 'saturday' ? { ...row, startTime: '09:30', endTime: '13:15' } : row,
);
const put = (companyId: number, user: { token: string }, payload: object) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/companies/${companyId}/schedules`,
    headers: bearer(user),
    payload,
  });
const company = async (companyId: number, user: { token: string }) =>
  ZCompany.parse((await inject('GET', `/api/companies/${companyId}`, user)).json());

describe('company schedules', () => {
  it('GET /companies/:id answers the default working hours until they are set', async () => {
    const body = await company(a.companyId, a.admin);
    expect(body.schedules).toEqual(DEFAULT_COMPANY_SCHEDULES);
    expect(body.schedules?.find((r) => r.weekdayEn === 'monday')).toMatchObject({
      startTime: '08:00',
      endTime: '18:00',
    });
    expect(body.schedules?.find((r) => r.weekdayEn === 'sunday')).toMatchObject({
      startTime: '00:00',
      endTime: '00:00',
    });
  });

  it('PUT stores the hours for the admin company and GET shows them', async () => {
    const res = await put(a.companyId, a.admin, { schedules: week });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ schedules: week });
    expect((await company(a.companyId, a.admin)).schedules).toEqual(week);
    expect((await company(b.companyId, b.admin)).schedules).toEqual(DEFAULT_COMPANY_SCHEDULES);
  });

  it("refuses another company's id (404) to an admin, allows it to a super user", async () => {
    const res = await put(a.companyId, b.admin, { schedules: DEFAULT_COMPANY_SCHEDULES });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'ERR_NO_COMPANY_FOUND' });
    expect((await company(a.companyId, a.admin)).schedules).toEqual(week);
    const root = await createUser(t.app, b.companyId, { profile: 'admin', super: true });
    const bySuper = await put(a.companyId, root, { schedules: DEFAULT_COMPANY_SCHEDULES });
    expect(bySuper.statusCode).toBe(200);
    expect((await company(a.companyId, a.admin)).schedules).toEqual(DEFAULT_COMPANY_SCHEDULES);
    expect((await put(999_999, root, { schedules: week })).statusCode).toBe(404);
  });

  it('is admin only', async () => {
    const res = await put(a.companyId, a.agent, { schedules: week });
    expect(res.statusCode).toBe(403);
  });

  it("validates 'HH:mm' times, weekdays and duplicates, naming the field", async () => {
    const cases: [object, string][] = [
      [{ schedules: [{ ...week[0], startTime: '25:00' }] }, 'schedules.0.startTime'],
      [{ schedules: [{ ...week[0], endTime: '8:00' }] }, 'schedules.0.endTime'],
      [{ schedules: [{ ...week[0], weekdayEn: 'someday' }] }, 'schedules.0.weekdayEn'],
      [{ schedules: [week[0], week[0]] }, 'schedules'],
      [{}, 'schedules'],
    ];
    for (const [payload, field] of cases) {
      const res = await put(a.companyId, a.admin, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ error: 'ERR_VALIDATION', field });
    }
  });
});
