/**
 * The checkout dialog (document 3 sections 2, 3, 4 and 5): step 0 data (firstName, address2, city,
 * zipcode and country required), step 1 plan, step 2 review, then POST /subscription and the Pix
 * payment screen. As the spec says, the form starts at step 1; 'Back' reaches the data step, which
 * is prefilled from the billing profile. Card fields are not collected: Zapdesk charges by Pix.
 * Loaded with React.lazy by the pages that open it.
 */
import {
  Alert,
  Box,
  Button,
  Checkbox,
  DialogActions,
  DialogContent,
  FormControlLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  Step,
  StepLabel,
  Stepper,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import {
  type BillingPeriod,
  type CheckoutData,
  FREE_TRIAL_PLAN_NAME,
  type Invoice,
  type Plan,
  planPrice,
  type SubscribeResponse,
  ZCheckoutData,
} from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { notifyError } from '../../lib/notify';
import { DialogFrame } from '../common/dialog-frame';
import { formatBRL } from './money';
import { useBillingProfile, usePlans, useSubscribe } from './use-billing';

/** Text fields of step 0 in display order; `required` per document 3 section 5. */
const DATA_FIELDS = [
  { name: 'firstName', required: true },
  { name: 'lastName', required: false },
  { name: 'address2', required: true },
  { name: 'city', required: true },
  { name: 'state', required: false },
  { name: 'zipcode', required: true },
] as const;

type DataForm = {
  [K in (typeof DATA_FIELDS)[number]['name']]: string;
} & { country: string; useAddressForPaymentDetails: boolean };

const EMPTY: DataForm = {
  firstName: '',
  lastName: '',
  address2: '',
  city: '',
  state: '',
  zipcode: '',
  country: 'BR',
  useAddressForPaymentDetails: false,
};

/** Field name -> message key of the first problem of step 0 (empty when valid). */
export function checkoutDataErrors(form: DataForm): Record<string, string> {
  const parsed = ZCheckoutData.safeParse({
    ...form,
    lastName: form.lastName || undefined,
    state: form.state || undefined,
  });
  const errors: Record<string, string> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const key = String(issue.path[0]);
    errors[key] ??= issue.message === 'tooLong' ? 'validation.tooLong' : 'billing.required';
  }
  return errors;
}

/** Step 0 values as sent: only the filled ones, so an untouched data step sends nothing. */
function filledData(form: DataForm): Partial<CheckoutData> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    if (typeof value === 'string' ? value.trim() !== '' : value) out[key] = value;
  }
  if (Object.keys(checkoutDataErrors(form)).length > 0) return {};
  return out as Partial<CheckoutData>;
}

export default function CheckoutDialog({
  invoice,
  onClose,
  onSubmitted,
}: {
  /** The open invoice being paid (its plan and period are fixed), or null to choose a plan. */
  invoice: Invoice | null;
  onClose: () => void;
  onSubmitted: (answer: SubscribeResponse) => void;
}) {
  const { t } = useTranslation();
  const plans = usePlans();
  const profile = useBillingProfile();
  const subscribe = useSubscribe();
  const [step, setStep] = useState(1);
  const [form, setForm] = useState<DataForm>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [planId, setPlanId] = useState<number | null>(invoice?.planId ?? null);
  const [period, setPeriod] = useState<BillingPeriod>(invoice?.period ?? 'MENSAL');

  // Prefill step 0 from the billing profile once it arrives.
  const saved = profile.data;
  useEffect(() => {
    if (!saved) return;
    const [first = '', ...rest] = saved.name.split(' ');
    setForm((f) => ({
      ...f,
      firstName: f.firstName || first,
      lastName: f.lastName || rest.join(' '),
      address2: f.address2 || saved.address,
      city: f.city || saved.city,
      state: f.state || saved.state,
      zipcode: f.zipcode || saved.zipcode,
      country: saved.country,
    }));
  }, [saved]);

  const offered = (plans.data ?? []).filter((p) => p.name !== FREE_TRIAL_PLAN_NAME);
  const plan: Plan | undefined = offered.find((p) => p.id === planId);
  const price = invoice ? invoice.value : plan ? planPrice(plan.value, period) : 0;
  const errors = checkoutDataErrors(form);
  const set = (name: string, value: string | boolean) => setForm((f) => ({ ...f, [name]: value }));

  const next = () => {
    if (step === 0) {
      setTouched(true);
      if (Object.keys(errors).length > 0) {
        toast.error(t('billing.fillRequired'));
        return;
      }
    }
    if (step === 1 && !plan && !invoice) {
      toast.error(t('billing.checkout.choosePlan'));
      return;
    }
    setStep((s) => s + 1);
  };

  const submit = () =>
    subscribe.mutate(
      {
        ...filledData(form),
        ...(invoice ? { invoiceId: invoice.id } : { plan: planId ?? undefined, period }),
        price,
        users: plan?.users,
        connections: plan?.connections,
      },
      {
        onSuccess: (answer) => {
          toast.success(t('billing.checkout.created'));
          onSubmitted(answer);
        },
        onError: notifyError,
      },
    );

  const dataStep = (
    <Stack spacing={1} data-testid="checkout-step-0">
      {DATA_FIELDS.map(({ name, required }) => {
        const error = touched ? errors[name] : undefined;
        return (
          <TextField
            key={name}
            label={t(`billing.checkout.fields.${name}`)}
            value={form[name]}
            onChange={(e) => set(name, e.target.value)}
            required={required}
            error={error !== undefined}
            helperText={error ? t(error) : ' '}
            size="small"
            fullWidth
            slotProps={{ htmlInput: { 'data-testid': `checkout-${name}` } }}
          />
        );
      })}
      <TextField
        select
        label={t('billing.fields.country')}
        value={form.country}
        onChange={(e) => set('country', e.target.value)}
        required
        error={touched && errors.country !== undefined}
        helperText={touched && errors.country ? t(errors.country) : ' '}
        size="small"
        slotProps={{ htmlInput: { 'data-testid': 'checkout-country' } }}
      >
        <MenuItem value="BR">BR</MenuItem>
        <MenuItem value="usa">usa</MenuItem>
      </TextField>
      <FormControlLabel
        control={
          <Checkbox
            checked={form.useAddressForPaymentDetails}
            onChange={(e) => set('useAddressForPaymentDetails', e.target.checked)}
          />
        }
        label={t('billing.checkout.useAddress')}
      />
    </Stack>
  );

  const planStep = (
    <Stack spacing={2} data-testid="checkout-step-1">
      {invoice ? (
        <Typography data-testid="checkout-invoice">{invoice.detail}</Typography>
      ) : (
        <>
          <ToggleButtonGroup
            exclusive
            size="small"
            value={period}
            onChange={(_e, value: BillingPeriod | null) => value && setPeriod(value)}
          >
            <ToggleButton value="MENSAL">{t('billing.monthly')}</ToggleButton>
            <ToggleButton value="ANUAL">{t('billing.annual')}</ToggleButton>
          </ToggleButtonGroup>
          <RadioGroup value={planId ?? ''} onChange={(e) => setPlanId(Number(e.target.value))}>
            {offered.map((p) => (
              <FormControlLabel
                key={p.id}
                value={p.id}
                control={<Radio slotProps={{ input: { 'aria-label': p.name } }} />}
                data-testid={`checkout-plan-${p.id}`}
                label={`${p.name} — ${formatBRL(planPrice(p.value, period))}`}
              />
            ))}
          </RadioGroup>
        </>
      )}
      {plan && (
        <Typography variant="body2" color="text.secondary">
          {t('billing.users', { count: plan.users })} ·{' '}
          {t('billing.connections', { count: plan.connections })}
        </Typography>
      )}
    </Stack>
  );

  const filled = filledData(form);
  const reviewStep = (
    <Stack spacing={1} data-testid="checkout-step-2">
      <Typography variant="subtitle2">{t('billing.checkout.summary')}</Typography>
      <Typography>{invoice ? invoice.detail : plan?.name}</Typography>
      <Typography>{t(period === 'ANUAL' ? 'billing.annual' : 'billing.monthly')}</Typography>
      <Typography variant="h6" data-testid="checkout-total">
        {formatBRL(price)}
      </Typography>
      {filled.firstName && (
        <Box data-testid="checkout-review-data">
          <Typography variant="subtitle2">{t('billing.checkout.steps.data')}</Typography>
          <Typography>{[filled.firstName, filled.lastName].filter(Boolean).join(' ')}</Typography>
          <Typography>
            {[filled.address2, filled.city, filled.state, filled.zipcode, filled.country]
              .filter(Boolean)
              .join(', ')}
          </Typography>
        </Box>
      )}
      <Alert severity="info">{t('billing.checkout.pixNote')}</Alert>
    </Stack>
  );

  return (
    <DialogFrame onClose={onClose} title={t('billing.checkout.title')} maxWidth="sm" fullWidth>
      <DialogContent>
        <Stepper activeStep={step} sx={{ py: 2 }}>
          {(['data', 'plan', 'review'] as const).map((key) => (
            <Step key={key}>
              <StepLabel>{t(`billing.checkout.steps.${key}`)}</StepLabel>
            </Step>
          ))}
        </Stepper>
        {step === 0 ? dataStep : step === 1 ? planStep : reviewStep}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('billing.close')}</Button>
        {step > 0 && (
          <Button onClick={() => setStep((s) => s - 1)} data-testid="checkout-back">
            {t('billing.back')}
          </Button>
        )}
        {step < 2 ? (
          <Button variant="contained" onClick={next} data-testid="checkout-next">
            {t('billing.checkout.next')}
          </Button>
        ) : (
          <Button
            variant="contained"
            onClick={submit}
            disabled={subscribe.isPending}
            data-testid="checkout-submit"
          >
            {t('billing.checkout.submit')}
          </Button>
        )}
      </DialogActions>
    </DialogFrame>
  );
}
