/**
 * The Perfex CRM REST API as the CRM billing calls use it: the HTTP client (server token, form
 * bodies, timeouts, the catalogue code of each kind of failure) and the company's CRM customer.
 */
import { type ErrorCode, onlyDigits, providerMessage } from '@zapdesk/shared';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { billingProfiles, companies } from '../../db/schema/index.js';
import { AppError, orNotFound } from '../../lib/app-error.js';

/** A Perfex answer: HTTP status and its JSON body (`{}` when it is not JSON). */
export interface PerfexAnswer<T> {
  status: number;
  body: T;
}

/**
 * A call to the Perfex CRM REST API: `authtoken` header, form-encoded body, 10 s timeout. A network
 * failure, timeout or 5xx answer throws `failure` (the catalogue code of the caller's step); other
 * answers are returned for the caller to judge. @throws ERR_NOT_FOUND without a configured CRM.
 */
export async function perfex<T>(
  ctx: AppContext,
  failure: ErrorCode,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  form?: URLSearchParams,
): Promise<PerfexAnswer<T>> {
  const base = ctx.config.CRM_URL;
  const token = ctx.config.CRM_TOKEN;
  // Without a configured CRM the calls do not exist for the client (404), never a server error.
  if (!base || !token) throw new AppError('ERR_NOT_FOUND');
  let response: Response;
  try {
    response = await fetch(`${base.replace(/\/+$/, '')}/api${path}`, {
      method,
      headers: {
        authtoken: token,
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form?.toString(),
      signal: AbortSignal.timeout(10_000),
    });
  } catch (error) {
    ctx.log.warn({ err: error, path }, 'crm unreachable');
    throw new AppError(failure);
  }
  const body = (await response.json().catch(() => ({}))) as T;
  if (response.status >= 500) {
    ctx.log.warn({ status: response.status, path }, 'crm failed');
    throw new AppError(failure);
  }
  return { status: response.status, body };
}

/** True when Perfex answered a refusal (4xx or `status: false`). */
export const refused = (answer: PerfexAnswer<{ status?: boolean }>) =>
  answer.status >= 400 || answer.body?.status === false;

/**
 * The catalogue error of a refusal, carrying the CRM's own text as safe plain text (no HTML,
 * bounded); Perfex sends its validation errors as HTML paragraphs.
 */
export function refusal(code: ErrorCode, body: { message?: unknown; error?: unknown } | null): AppError {
  const message = providerMessage(body?.message ?? body?.error) || 'CRM refused';
  return new AppError(code, { extra: { message } });
}

/** The CRM's base address without a trailing slash (configured: perfex() checked it). */
export const crmBase = (ctx: AppContext) => (ctx.config.CRM_URL ?? '').replace(/\/+$/, '');

/**
 * The reference Zapdesk writes in the `website` field of the CRM customer it creates for a company:
 * built from the company id and creation instant, never from anything a client sends, so a customer
 * found with it is that company's own (names are not unique; signup is public).
 */
function customerReference(company: { id: number; createdAt: Date }): string {
  return `zapdesk:company:${company.id}:${company.createdAt.getTime().toString(36)}`;
}

/**
 * The CRM customer id of the customer Zapdesk created for the company: Perfex's search by the
 * company's name, keeping only the customer whose `website` holds the company's reference.
 * A customer that merely shares the name is never returned. Null when none.
 * @throws `failure` when the CRM cannot be asked.
 */
export async function findOwnCustomer(
  ctx: AppContext,
  company: { id: number; name: string; createdAt: Date },
  failure: ErrorCode = 'ERR_CRM_VERIFY',
): Promise<string | null> {
  const { status, body } = await perfex<{ userid?: string | number; website?: string }[] | object>(
    ctx,
    failure,
    'GET',
    `/customers/search/${encodeURIComponent(company.name)}`,
  );
  if (status !== 200 || !Array.isArray(body)) return null;
  const reference = customerReference(company);
  const match = body.find((c) => c.website === reference);
  return match?.userid !== undefined ? String(match.userid) : null;
}

/** The spec's CRM customer payload (document 3 section 3), every field bounded. */
export const ZCustomerBody = z.object({
  name: z.string().trim().min(1).max(120),
  email: z.string().trim().max(254).optional().default(''),
  phone: z.string().trim().max(20).optional().default(''),
  vat: z.string().trim().max(20).optional().default(''),
  address: z.string().trim().max(200).optional().default(''),
  city: z.string().trim().max(100).optional().default(''),
  state: z.string().trim().max(50).optional().default(''),
  zip: z.string().trim().max(10).optional().default(''),
  country: z.string().trim().max(10).optional().default('BR'),
});
export type CustomerBody = z.infer<typeof ZCustomerBody>;

/** Perfex country ids of the spec's two options (BR, usa). */
export const COUNTRY_IDS: Record<string, string> = { BR: '32', usa: '236' };

/** The Perfex customer form of the company (its own name and reference, the body's contact data). */
export function customerForm(
  company: { id: number; name: string; createdAt: Date },
  body: CustomerBody,
): URLSearchParams {
  return new URLSearchParams({
    company: company.name,
    website: customerReference(company),
    vat: onlyDigits(body.vat),
    phonenumber: body.phone,
    address: body.address,
    city: body.city,
    state: body.state,
    zip: body.zip,
    country: COUNTRY_IDS[body.country] ?? '0',
    billing_street: body.address,
    billing_city: body.city,
    billing_state: body.state,
    billing_zip: body.zip,
    billing_country: COUNTRY_IDS[body.country] ?? '0',
  });
}

/** The caller company's id, name, creation instant and the CRM customer id kept for it. */
export async function companyContext(ctx: AppContext, companyId: number) {
  const [row] = await ctx.db
    .select({
      id: companies.id,
      name: companies.name,
      createdAt: companies.createdAt,
      customerId: billingProfiles.providerCustomerId,
    })
    .from(companies)
    .leftJoin(billingProfiles, eq(billingProfiles.companyId, companies.id))
    .where(eq(companies.id, companyId));
  return orNotFound(row, 'ERR_NO_COMPANY_FOUND');
}

/**
 * Binds the CRM customer id to the company (its billing profile; created from the customer body
 * when the company has none yet, so the binding is never lost).
 */
export async function keepCustomerId(ctx: AppContext, companyId: number, id: string, body: CustomerBody) {
  await ctx.db
    .insert(billingProfiles)
    .values({
      companyId,
      name: body.name,
      email: body.email,
      phone: body.phone,
      cnpjCpf: onlyDigits(body.vat),
      address: body.address,
      city: body.city,
      state: body.state,
      zipcode: body.zip,
      country: body.country,
      providerCustomerId: id,
    })
    .onConflictDoUpdate({
      target: billingProfiles.companyId,
      set: { providerCustomerId: id, updatedAt: sql`now()` },
    });
}
