/**
 * A user's billing data (document 3: the plans page's billing profile is read from the user). Kept
 * apart from billing.ts so that the user schemas, which every page loads, do not bring the CPF/CNPJ
 * validator along; the server checks the check digits of a CPF/CNPJ given (ERR_VALIDATION).
 */
import { z } from 'zod';
import { V } from './common.js';

/** Longest value of each billing field (document 3: phone 15, CPF/CNPJ mask 18). */
export const BILLING_FIELD_MAX = { phone: 15, cnpjCpf: 18, address: 200, city: 100, state: 50, zipcode: 10 };
/** The countries the billing dialog offers. */
export const BILLING_COUNTRIES = ['BR', 'usa'] as const;

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

/** The billing fields of a user as the API answers them ('' when not saved). */
export const USER_BILLING_FIELDS = [
  'phone',
  'cnpjCpf',
  'address',
  'city',
  'state',
  'zipcode',
  'country',
] as const;

/** A user's billing fields before anything is saved (all ''). */
export const EMPTY_USER_BILLING: Record<(typeof USER_BILLING_FIELDS)[number], string> = {
  phone: '',
  cnpjCpf: '',
  address: '',
  city: '',
  state: '',
  zipcode: '',
  country: '',
};
