import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Link, MenuItem, TextField } from '@mui/material';
import { useMask } from '@react-input/mask';
import { useMutation, useQuery } from '@tanstack/react-query';
import { FREE_TRIAL_PLAN_NAME, type Plan, V, ZSignupBody } from '@zapdesk/shared';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { api } from '../../lib/api';
import { showToast } from '../../lib/notify';
import { validationText } from '../../lib/validation-text';
import { AuthForm } from './auth-form';
import { AuthLayout } from './auth-layout';
import { AuthTextField } from './auth-text-field';

/** The signup form: the shared body rules plus a required plan (web-only schema). */
const ZSignupForm = ZSignupBody.pick({ name: true, email: true, phone: true, password: true }).extend({
  planId: z.number({ error: V.required }),
});
type SignupFormInput = z.input<typeof ZSignupForm>;

/** Mask of the signup phone (document 3 section 5). */
export const PHONE_MASK = '(__) _____-____';

/**
 * /signup (document 3): company name, e-mail, phone, password and the free-trial plan from
 * GET /plans/list; POST /companies/cadastro, then a toast and /login.
 */
export function SignupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const phoneRef = useMask({ mask: PHONE_MASK, replacement: { _: /\d/ } });

  const plans = useQuery({
    queryKey: ['plans', 'public'],
    queryFn: ({ signal }) => api.get<Plan[]>('/plans/list', undefined, signal),
  });
  const trialPlans = (plans.data ?? []).filter((plan) => plan.name === FREE_TRIAL_PLAN_NAME);

  const form = useForm<SignupFormInput, unknown, z.output<typeof ZSignupForm>>({
    resolver: zodResolver(ZSignupForm),
    defaultValues: { name: '', email: '', phone: '', password: '' },
  });
  const {
    register,
    control,
    handleSubmit,
    setValue,
    getValues,
    formState: { errors },
  } = form;

  const trialId = trialPlans[0]?.id;
  useEffect(() => {
    if (trialId !== undefined && getValues('planId') === undefined) setValue('planId', trialId);
  }, [trialId, getValues, setValue]);

  const signup = useMutation({
    mutationFn: (values: z.output<typeof ZSignupForm>) =>
      api.post('/companies/cadastro', {
        ...values,
        recurrence: 'MENSAL',
        status: true,
        campaignsEnabled: true,
        companyId: params.get('companyId') ?? undefined,
      }),
    onSuccess: () => {
      showToast('success', t('signup.success'));
      navigate('/login');
    },
  });

  const phoneField = register('phone');
  const message = (key?: string) => (key ? validationText(t, key) : undefined);

  return (
    <AuthLayout title={t('signup.title')}>
      <AuthForm
        label={t('signup.title')}
        onSubmit={handleSubmit((values) => signup.mutate(values))}
        submitLabel={t('signup.submit')}
        submitTestId="signup-submit"
        pending={signup.isPending}
        large
        after={
          <Link component={RouterLink} to="/login" variant="body2">
            {t('signup.login')}
          </Link>
        }
      >
        <AuthTextField form={form} name="name" message={message} label={t('signup.companyName')} autoFocus />
        <AuthTextField form={form} name="email" message={message} label={t('signup.email')} kind="email" />
        <TextField
          label={t('signup.phone')}
          fullWidth
          {...phoneField}
          inputRef={(el: HTMLInputElement | null) => {
            if (el) phoneRef.current = el;
            phoneField.ref(el);
          }}
          placeholder="(99) 99999-9999"
          slotProps={{ htmlInput: { inputMode: 'tel' } }}
          error={!!errors.phone}
          helperText={message(errors.phone?.message)}
        />
        <AuthTextField
          form={form}
          name="password"
          message={message}
          label={t('signup.password')}
          kind="new-password"
        />
        <Controller
          name="planId"
          control={control}
          render={({ field }) => (
            <TextField
              select
              label={t('signup.plan')}
              required
              fullWidth
              name={field.name}
              value={field.value ?? ''}
              onChange={(e) => field.onChange(Number(e.target.value))}
              onBlur={field.onBlur}
              error={!!errors.planId}
              helperText={message(errors.planId?.message)}
              slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'signup-plan' } as object } }}
            >
              {trialPlans.map((plan) => (
                <MenuItem key={plan.id} value={plan.id}>
                  {t('signup.planOption', {
                    name: plan.name,
                    users: plan.users,
                    connections: plan.connections,
                    queues: plan.queues,
                  })}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {plans.isSuccess && trialPlans.length === 0 && <Alert severity="warning">{t('signup.noPlan')}</Alert>}
      </AuthForm>
    </AuthLayout>
  );
}
