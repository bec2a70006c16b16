import crypto from 'node:crypto';
import { onlyDigits } from '@zapdesk/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import type { BillingDriver, ChargeInput } from './providers.js';

/** A call to the Asaas API: JSON in and out, the `access_token` header, 10 s timeout. */
async function asaas<T>(ctx: AppContext, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const base = ctx.config.ASAAS_API_URL;
  const key = ctx.config.ASAAS_API_KEY;
  if (!base || !key) {
    throw new AppError('ERR_PAYMENT_PROVIDER', { extra: { message: 'Asaas is not configured' } });
  }
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/+$/, '')}${path}`, {
      method,
      headers: { access_token: key, 'content-type': 'application/json', 'user-agent': 'zapdesk' },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    ctx.log.warn({ err: error }, 'asaas unreachable');
    throw new AppError('ERR_PAYMENT_PROVIDER', { extra: { message: 'Asaas unreachable' } });
  }
  const answer = (await response.json().catch(() => ({}))) as T & {
    errors?: { description?: string }[];
  };
  if (!response.ok) {
    const message = answer.errors?.[0]?.description ?? `Asaas answered ${response.status}`;
    throw new AppError('ERR_PAYMENT_PROVIDER', { extra: { message: String(message).slice(0, 300) } });
  }
  return answer;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/**
 * Asaas driver: creates (once) the customer from the billing profile, a PIX payment whose
 * externalReference is the invoice id, and reads its Pix 'copia e cola' payload. Payment arrives
 * by the webhook (PAYMENT_RECEIVED / PAYMENT_CONFIRMED), checked by `verifyAsaasWebhook`.
 */
export const asaasDriver: BillingDriver = {
  name: 'asaas',
  async charge(ctx, input: ChargeInput) {
    const customer = input.customer;
    if (!customer) {
      throw new AppError('ERR_VALIDATION', { extra: { field: 'cnpjCpf', message: 'required' } });
    }
    let customerId = customer.providerCustomerId;
    if (!customerId) {
      const created = await asaas<{ id: string }>(ctx, 'POST', '/customers', {
        name: customer.name,
        email: customer.email,
        cpfCnpj: onlyDigits(customer.cnpjCpf),
        mobilePhone: onlyDigits(customer.phone),
        address: customer.address,
        postalCode: onlyDigits(customer.zipcode),
        externalReference: String(input.companyId),
      });
      customerId = created.id;
    }
    const payment = await asaas<{ id: string; invoiceUrl?: string }>(ctx, 'POST', '/payments', {
      customer: customerId,
      billingType: 'PIX',
      value: input.value,
      dueDate: isoDay(input.dueDate),
      description: input.detail,
      externalReference: String(input.invoiceId),
    });
    const qr = await asaas<{ payload: string }>(
      ctx,
      'GET',
      `/payments/${encodeURIComponent(payment.id)}/pixQrCode`,
    );
    return {
      providerChargeId: payment.id,
      pixCode: qr.payload ?? null,
      paymentLink: payment.invoiceUrl ?? null,
      providerCustomerId: customerId,
    };
  },
};

/**
 * True when the webhook's `asaas-access-token` header equals ASAAS_WEBHOOK_TOKEN (constant time).
 * Without a configured token every webhook is refused.
 */
export function verifyAsaasWebhook(ctx: AppContext, header: string | string[] | undefined): boolean {
  const expected = ctx.config.ASAAS_WEBHOOK_TOKEN;
  if (!expected || typeof header !== 'string') return false;
  const a = crypto.createHash('sha256').update(header).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}
