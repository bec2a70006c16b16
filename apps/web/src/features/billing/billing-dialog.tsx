/**
 * The billing-data dialog of the plans page (document 3 sections 2 and 5): name and e-mail read
 * only; phone, CPF/CNPJ, address, city, state, CEP and country required ('Obrigatório'), masked
 * with react-imask; CPF/CNPJ check digits checked by cpf-cnpj-validator (all-equal digits refused).
 * Loaded with React.lazy so the mask library reaches only this page.
 */
import { DialogContent, MenuItem, Stack, TextField } from '@mui/material';
import { type BillingProfile, isValidCpfCnpj, onlyDigits } from '@zapdesk/shared';
import { forwardRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { IMaskInput } from 'react-imask';
import { toast } from 'react-toastify';
import { DialogActionButtons } from '../common/dialog-action-buttons';
import { DialogFrame } from '../common/dialog-frame';

type MaskDefinition = string | { mask: string }[];

interface MaskedProps {
  name: string;
  mask: MaskDefinition;
  onChange: (event: { target: { name: string; value: string } }) => void;
}

/** MUI input slot that masks what is typed and reports the masked value. */
const MaskedInput = forwardRef<HTMLInputElement, MaskedProps>(function MaskedInput(props, ref) {
  const { onChange, mask, ...other } = props;
  return (
    <IMaskInput
      {...other}
      // biome-ignore lint/suspicious/noExplicitAny: IMask's dynamic mask typing is a union the input accepts.
      mask={mask as any}
      inputRef={ref}
      onAccept={(value: string) => onChange({ target: { name: props.name, value } })}
      overwrite
    />
  );
});

const MASKS: Record<string, MaskDefinition> = {
  phone: [{ mask: '(00) 0000-0000' }, { mask: '(00) 00000-0000' }],
  cnpjCpf: [{ mask: '000.000.000-00' }, { mask: '00.000.000/0000-00' }],
  zipcode: '00000-000',
};

const FIELDS = ['phone', 'cnpjCpf', 'address', 'city', 'state', 'zipcode'] as const;

/** True when the CPF/CNPJ error shows: invalid with 11 or more digits typed (section 5). */
export const showDocumentError = (value: string) => onlyDigits(value).length >= 11 && !isValidCpfCnpj(value);

export default function BillingDialog({
  open,
  initial,
  onClose,
  onConfirm,
  busy,
}: {
  open: boolean;
  initial: BillingProfile;
  onClose: () => void;
  onConfirm: (profile: BillingProfile) => void;
  busy: boolean;
}) {
  const { t } = useTranslation();
  const [form, setForm] = useState<BillingProfile>(initial);
  const [touched, setTouched] = useState(false);
  const set = (event: { target: { name: string; value: string } }) =>
    setForm((f) => ({ ...f, [event.target.name]: event.target.value }));

  const submit = () => {
    setTouched(true);
    if (FIELDS.some((f) => !form[f].trim()) || !form.country) {
      toast.error(t('billing.fillRequired'));
      return;
    }
    if (!isValidCpfCnpj(form.cnpjCpf)) {
      toast.error(t('billing.documentInvalidSubmit'));
      return;
    }
    toast.info(t('billing.confirmed'));
    onConfirm(form);
  };

  const field = (name: (typeof FIELDS)[number]) => {
    const empty = touched && !form[name].trim();
    const documentError = name === 'cnpjCpf' && showDocumentError(form.cnpjCpf);
    const mask = MASKS[name];
    return (
      <TextField
        key={name}
        name={name}
        label={t(`billing.fields.${name}`)}
        value={form[name]}
        onChange={set}
        required
        error={empty || documentError}
        helperText={documentError ? t('billing.documentInvalid') : empty ? t('billing.required') : ' '}
        slotProps={
          mask
            ? {
                input: {
                  inputComponent: MaskedInput as never,
                  inputProps: { mask, 'data-testid': `billing-${name}` },
                },
              }
            : { htmlInput: { 'data-testid': `billing-${name}` } }
        }
        fullWidth
        size="small"
      />
    );
  };

  return (
    <DialogFrame open={open} onClose={onClose} title={t('billing.dialogTitle')} maxWidth="sm" fullWidth>
      <DialogContent>
        <Stack spacing={1} sx={{ pt: 1 }}>
          <TextField label={t('billing.fields.name')} value={form.name} size="small" disabled fullWidth />
          <TextField label={t('billing.fields.email')} value={form.email} size="small" disabled fullWidth />
          {FIELDS.map(field)}
          <TextField
            select
            name="country"
            label={t('billing.fields.country')}
            value={form.country}
            onChange={set}
            size="small"
            required
          >
            <MenuItem value="BR">BR</MenuItem>
            <MenuItem value="usa">usa</MenuItem>
          </TextField>
        </Stack>
      </DialogContent>
      <DialogActionButtons
        onCancel={onClose}
        cancelLabel={t('billing.back')}
        onAction={submit}
        actionLabel={t('billing.generate')}
        actionTestId="billing-generate"
        disabled={busy}
      />
    </DialogFrame>
  );
}
