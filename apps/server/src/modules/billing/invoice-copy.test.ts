/**
 * POST /invoices (document 3 section 7): the local copy of a plan invoice, priced by the server,
 * answered again when the open copy exists (so saving after a CRM creation adds no second open
 * invoice), refused with two open invoices.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoices, plans } from '../../db/schema/index.js';
import { t, useAppSuite } from '../../test/app-suite.js';
import { bearer, createTenant, type TenantFixture } from '../../test/factories.js';

let c: TenantFixture;
let basic: { id: number; value: number };
let full: { id: number; value: number };

useAppSuite();
beforeAll(async () => {
  c = await createTenant(t.app);
  const rows = await t.app.ctx.db.select().from(plans);
  basic = rows.find((p) => p.name === 'Básico')!;
  full = rows.find((p) => p.name === 'Completo')!;
});

const post = (payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/invoices', headers: bearer(c.admin), payload });

describe('POST /invoices', () => {
  it('saves the copy by plan name, priced by the server, with the period read from the value', async () => {
    const monthly = await post({ plan: { name: 'Básico', value: 0.01 }, dueDate: '2031-05-06T10:00:00Z' });
    expect(monthly.statusCode).toBe(200);
    expect(monthly.json()).toMatchObject({
      companyId: c.companyId,
      planId: basic.id,
      detail: `Básico #${basic.id} MENSAL`,
      value: basic.value,
      period: 'MENSAL',
      status: 'open',
      dueDate: '2031-05-06T10:00:00.000Z',
    });
    // The same plan and period again is the same copy, not a second open invoice.
    const again = await post({ plan: { name: 'Básico', value: basic.value } });
    expect(again.json().id).toBe(monthly.json().id);
    const annual = await post({ plan: { name: 'Completo', value: 1919.04 }, dueDate: 'not a date' });
    expect(annual.json()).toMatchObject({ planId: full.id, period: 'ANUAL', value: 1919.04 });
    expect(Math.abs(new Date(annual.json().dueDate).getTime() - Date.now())).toBeLessThan(60_000);
    const third = await post({ plan: { name: 'Completo', value: 199.9 } });
    expect(third.statusCode).toBe(403);
    expect(third.json().error).toBe('ERR_PENDING_INVOICE');
    const open = await t.app.ctx.db.select().from(invoices).where(eq(invoices.companyId, c.companyId));
    expect(open).toHaveLength(2);
  });

  it('refuses an unknown plan, the free trial and unbounded fields', async () => {
    expect((await post({ plan: { name: 'Nenhum' } })).json().error).toBe('ERR_NO_PLAN_FOUND');
    expect((await post({ plan: { name: 'Teste Gratis' } })).json().error).toBe('ERR_NO_PLAN_FOUND');
    const long = await post({ plan: { name: 'x'.repeat(121) } });
    expect(long.statusCode).toBe(400);
    expect(long.json().field).toMatch(/^plan\.name/);
  });
});
