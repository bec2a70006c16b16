import { createStaticPix, hasError } from 'pix-utils';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/app-error.js';
import { getPixSettings } from './pix-settings.js';

/** The invoice a provider charges (value in BRL). */
export interface ChargeInput {
  invoiceId: number;
  companyId: number;
  detail: string;
  value: number;
  dueDate: Date;
  customer: {
    name: string;
    email: string;
    phone: string;
    cnpjCpf: string;
    address: string;
    city: string;
    state: string;
    zipcode: string;
    /** Customer id kept from an earlier charge at the same provider. */
    providerCustomerId: string | null;
  } | null;
}

/** What a provider returns for a charge: ids and how the customer pays. */
export interface Charge {
  providerChargeId: string | null;
  pixCode: string | null;
  paymentLink: string | null;
  providerCustomerId?: string;
}

/**
 * One billing provider. `charge` creates the payment request of an invoice;
 * payments come back through `confirmInvoicePayment` (webhook or super user).
 * @throws AppError ERR_PIX_KEY_NOT_SET / ERR_PAYMENT_PROVIDER / ERR_VALIDATION.
 */
export interface BillingDriver {
  name: 'manual' | 'asaas';
  charge(ctx: AppContext, input: ChargeInput): Promise<Charge>;
}

/** Removes accents and anything a BR Code field may not hold. */
const plain = (value: string) =>
  value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .-]/g, '')
    .trim();

/**
 * Manual provider: a static Pix BR Code ('copia e cola', EMV payload built by pix-utils) paying
 * the invoice value to the platform key set by the super user; txid 'ZD<invoiceId>'. The super
 * user confirms the payment (POST /invoices/:id/pay).
 */
export const manualDriver: BillingDriver = {
  name: 'manual',
  async charge(ctx, input) {
    const settings = await getPixSettings(ctx);
    if (!settings.pixKey) throw new AppError('ERR_PIX_KEY_NOT_SET');
    const pix = createStaticPix({
      merchantName: plain(settings.merchantName) || 'Zapdesk',
      merchantCity: plain(settings.merchantCity) || 'Sao Paulo',
      pixKey: settings.pixKey,
      infoAdicional: plain(`Fatura ${input.invoiceId}`),
      transactionAmount: input.value,
      txid: `ZD${input.invoiceId}`,
    });
    if (hasError(pix)) {
      throw new AppError('ERR_PAYMENT_PROVIDER', { extra: { message: 'invalid Pix key or receiver' } });
    }
    return { providerChargeId: null, pixCode: pix.toBRCode(), paymentLink: null };
  },
};
