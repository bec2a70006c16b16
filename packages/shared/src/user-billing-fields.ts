/**
 * A user's billing fields as plain constants (document 3: the plans page's billing dialog): no zod
 * here, so the pages that only need the names and limits do not load the schema library.
 */
/** Longest value of each billing field (document 3: phone 15, CPF/CNPJ mask 18). */
export const BILLING_FIELD_MAX = { phone: 15, cnpjCpf: 18, address: 200, city: 100, state: 50, zipcode: 10 };
/** The countries the billing dialog offers. */
export const BILLING_COUNTRIES = ['BR', 'usa'] as const;

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
