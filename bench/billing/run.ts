/**
 * Billing benchmark: N companies each check out a plan (POST /subscription, manual provider: a Pix
 * BR Code), then every payment is confirmed R times at once (a replayed webhook storm through
 * `confirmInvoicePayment`). Checks that each company's dueDate moved exactly once and prints a
 * markdown row per database for docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/billing/run.ts [--companies 100] [--replays 5] [--backends pglite,postgres]
 */
import { performance } from 'node:perf_hooks';
import { eq, inArray } from 'drizzle-orm';
import { companies, plans } from '../../apps/server/src/db/schema/index.js';
import { confirmInvoicePayment } from '../../apps/server/src/modules/billing/billing-service.js';
import { bearer, createTenant, createUser } from '../../apps/server/src/test/factories.js';
import { createTestApp } from '../../apps/server/src/test/test-app.js';
import { benchArgs } from '../support/options.js';
import { stats } from '../support/stats.js';

const values = benchArgs({ companies: '100', replays: '5', backends: 'pglite,postgres' });
const N = Number(values.companies);
const R = Number(values.replays);

for (const backend of values.backends.split(',')) {
  if (backend === 'postgres') process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
  else delete process.env.TEST_DATABASE_URL;
  const t = await createTestApp();
  try {
    const owner = await createTenant(t.app);
    const superUser = await createUser(t.app, owner.companyId, { profile: 'admin', super: true });
    await t.app.inject({
      method: 'PUT',
      url: '/api/billing/pix-settings',
      headers: bearer(superUser),
      payload: { pixKey: 'financeiro@zapdesk.test', merchantName: 'Zapdesk', merchantCity: 'Sao Paulo' },
    });
    const [plan] = await t.app.ctx.db.select().from(plans).where(eq(plans.name, 'Completo'));
    const tenants = [];
    for (let i = 0; i < N; i++) tenants.push(await createTenant(t.app));
    const ids = tenants.map((x) => x.companyId);
    const before = new Map(
      (await t.app.ctx.db.select().from(companies).where(inArray(companies.id, ids))).map((c) => [
        c.id,
        c.dueDate!,
      ]),
    );

    const latencies: number[] = [];
    const invoiceIds: number[] = [];
    const t0 = performance.now();
    await Promise.all(
      tenants.map(async (tenant) => {
        const start = performance.now();
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/subscription',
          headers: bearer(tenant.admin),
          payload: { planId: plan!.id, period: 'MENSAL' },
        });
        latencies.push(performance.now() - start);
        if (res.statusCode !== 200) throw new Error(res.body);
        invoiceIds.push(res.json().invoice.id);
      }),
    );
    const checkoutS = (performance.now() - t0) / 1000;

    const t1 = performance.now();
    const results = await Promise.all(
      invoiceIds.flatMap((invoiceId) =>
        Array.from({ length: R }, () =>
          confirmInvoicePayment(t.app.ctx, {
            invoiceId,
            provider: 'asaas',
            providerPaymentId: `pay_${invoiceId}`,
          }),
        ),
      ),
    );
    const confirmS = (performance.now() - t1) / 1000;
    const applied = results.filter((r) => r.applied).length;
    const after = await t.app.ctx.db.select().from(companies).where(inArray(companies.id, ids));
    const movedOnce = after.every((c) => {
      const days = (c.dueDate!.getTime() - before.get(c.id)!.getTime()) / 86_400_000;
      return days >= 28 && days <= 31;
    });
    const s = stats(latencies);
    console.log(
      `| ${backend} | ${N} | ${s.p50.toFixed(0)} | ${s.p95.toFixed(0)} | ${(N / checkoutS).toFixed(0)} | ${N * R} | ${confirmS.toFixed(2)} | ${((N * R) / confirmS).toFixed(0)} | ${applied} | ${movedOnce ? 'yes' : 'NO'} |`,
    );
  } finally {
    await t.close();
  }
}
