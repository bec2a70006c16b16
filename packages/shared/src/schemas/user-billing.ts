/**
 * A user's billing data (document 3: the plans page's billing profile is read from the user). Kept
 * apart from billing.ts so that the user schemas, which every page loads, do not bring the CPF/CNPJ
 * validator along; the server checks the check digits of a CPF/CNPJ given (ERR_VALIDATION).
 */
import { z } from 'zod';
import { BILLING_COUNTRIES, BILLING_FIELD_MAX } from '../user-billing-fields.js';
import { V } from './common.js';

const savedField = (max: number) => z.string().trim().max(max, V.tooLong).optional();

/**
 * A user's own billing data in PUT /users/:id: each field optional and may be empty (not saved
 * yet), bounded like the billing dialog.
 */
export const ZUserBillingFields = z.object({
  phone: savedField(BILLING_FIELD_MAX.phone),
  cnpjCpf: savedField(BILLING_FIELD_MAX.cnpjCpf),
  address: savedField(BILLING_FIELD_MAX.address),
  city: savedField(BILLING_FIELD_MAX.city),
  state: savedField(BILLING_FIELD_MAX.state),
  zipcode: savedField(BILLING_FIELD_MAX.zipcode),
  country: z.union([z.literal(''), z.enum(BILLING_COUNTRIES)]).optional(),
});
