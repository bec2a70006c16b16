import EventRepeatIcon from '@mui/icons-material/EventRepeat';
import { Grid, Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import {
  type CompanyRow,
  type DueDateColour,
  dueDateColour,
  RECURRENCES,
  type Recurrence,
  ZCompanyBody,
} from '@zapdesk/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { formatDate } from '../../lib/format';
import { FormSelect, FormSwitch, FormTextField } from '../common/form-fields';
import { useConfirmDelete } from '../common/list-page';
import { RecordFormDialog } from '../common/record-form-dialog';
import { RecordsTab } from '../common/records-tab';
import { ActionIconButton, RowActions } from '../common/row-actions';
import { useRecordDialog } from '../common/use-record-form';
import { useCompanies, useDeleteCompany, useExtendCompany, usePlans, useSaveCompany } from './use-accounts';

/** Row backgrounds by days to due date (document 3 section 9), dark text on them in both themes. */
export const DUE_DATE_BACKGROUND: Record<DueDateColour, string | undefined> = {
  none: undefined,
  yellow: '#fffead',
  orange: '#f7cc8f',
  red: '#fa8c8c',
};

interface CompanyForm {
  name: string;
  email: string;
  phone: string;
  planId: number | '';
  status: boolean;
  campaignsEnabled: boolean;
  /** 'yyyy-MM-dd' of the date input, '' for none. */
  dueDate: string;
  recurrence: Recurrence | null;
  password?: string;
}

/** The form's rules: the shared body's, with the date input's 'yyyy-MM-dd' (or '') kept as typed. */
const ZCompanyForm = ZCompanyBody.omit({ dueDate: true }).extend({ dueDate: z.string().max(10) });

/** The date input's day as an instant at local noon (the same day in every nearby time zone). */
export const dayToIso = (day: string) => (day ? new Date(`${day}T12:00:00`).toISOString() : null);

const toForm = (record: CompanyRow | null): CompanyForm => ({
  name: record?.name ?? '',
  email: record?.email ?? '',
  phone: record?.phone ?? '',
  planId: record?.planId ?? '',
  status: record?.status ?? true,
  campaignsEnabled: record?.campaignsEnabled ?? false,
  dueDate: record?.dueDate ? record.dueDate.slice(0, 10) : '',
  recurrence: record?.recurrence ?? 'MENSAL',
});

/** Add/edit company dialog; on add, an e-mail and a password also create the company's admin. */
function CompanyModal({ record, onClose }: { record: CompanyRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveCompany();
  const plans = usePlans();
  const dialog = useRecordDialog<CompanyForm>({
    schema: ZCompanyForm,
    defaults: toForm(record),
    save: ({ dueDate, ...values }) => {
      // An edit sends the due date only when it was changed, so the exact instant is kept otherwise.
      const unchanged = record && dueDate === toForm(record).dueDate;
      const body = {
        ...values,
        planId: Number(values.planId),
        ...(unchanged ? {} : { dueDate: dayToIso(dueDate) }),
      };
      return save.mutateAsync({ id: record?.id, body });
    },
    saved: t('accounts.companies.saved'),
    onClose,
  });
  const switchField = (name: 'status' | 'campaignsEnabled') => <FormSwitch name={name} />;
  return (
    <RecordFormDialog
      dialog={dialog}
      ids="company"
      ns="accounts.companies"
      onClose={onClose}
      title={record ? t('accounts.companies.edit') : t('accounts.companies.add')}
      maxWidth="sm"
      editing={!!record}
    >
      <Grid container spacing={2}>
        <Grid size={12}>
          <FormTextField name="name" autoFocus />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormTextField name="email" type="email" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormTextField name="phone" />
        </Grid>
        {!record && (
          <Grid size={12}>
            <FormTextField
              name="password"
              type="password"
              autoComplete="new-password"
              rules={{ setValueAs: (v: string) => v || undefined }}
              hint={t('accounts.companies.passwordHint')}
            />
          </Grid>
        )}
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelect
            name="planId"
            numeric
            label={t('accounts.companies.plan')}
            testId="company-plan"
            options={(plans.data ?? []).map((plan) => ({ value: plan.id, label: plan.name }))}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormSelect
            name="recurrence"
            emptyAsNull
            options={RECURRENCES.map((value) => ({ value, label: t(`accounts.recurrence.${value}`) }))}
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <FormTextField
            name="dueDate"
            type="date"
            slotProps={{ inputLabel: { shrink: true } }}
            testId="company-due-date"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Stack>
            {switchField('status')}
            {switchField('campaignsEnabled')}
          </Stack>
        </Grid>
      </Grid>
    </RecordFormDialog>
  );
}

/**
 * The super user's companies tab of /settings (document 3 sections 2, 4 and 9): every company with
 * its plan, status, due date and recurrence; rows coloured by days to due date; add, edit, delete
 * and Expire (due date + the recurrence's months).
 */
export function CompaniesTab() {
  const { t } = useTranslation();
  const companies = useCompanies();
  const extend = useExtendCompany();
  const [modal, setModal] = useState<{ record: CompanyRow | null } | null>(null);
  const confirmDelete = useConfirmDelete<CompanyRow>(useDeleteCompany(), {
    title: (record) => t('accounts.companies.confirmDelete', { name: record?.name ?? '' }),
    message: t('accounts.companies.deleteWarning'),
    deletedMessage: t('accounts.companies.deleted'),
  });
  const now = Date.now();
  return (
    <RecordsTab
      testId="companies-tab"
      add={{
        label: t('accounts.companies.add'),
        testId: 'add-company-button',
        onClick: () => setModal({ record: null }),
      }}
      empty={companies.isSuccess && companies.data.length === 0}
      emptyText={t('accounts.companies.empty')}
      modal={modal && <CompanyModal record={modal.record} onClose={() => setModal(null)} />}
      deleteDialog={confirmDelete.dialog}
    >
      <Table size="small" sx={{ overflowX: 'auto', display: 'block' }}>
        <TableHead>
          <TableRow>
            <TableCell>{t('accounts.companies.name')}</TableCell>
            <TableCell>{t('accounts.companies.email')}</TableCell>
            <TableCell>{t('accounts.companies.plan')}</TableCell>
            <TableCell align="center">{t('accounts.companies.users')}</TableCell>
            <TableCell align="center">{t('accounts.companies.status')}</TableCell>
            <TableCell>{t('accounts.companies.createdAt')}</TableCell>
            <TableCell>{t('accounts.companies.dueDate')}</TableCell>
            <TableCell>{t('accounts.companies.recurrence')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {(companies.data ?? []).map((company) => {
            const colour = dueDateColour(company.dueDate, now);
            const background = DUE_DATE_BACKGROUND[colour];
            return (
              <TableRow
                key={company.id}
                data-testid={`company-row-${company.id}`}
                data-colour={colour}
                sx={
                  background ? { bgcolor: background, '& td': { color: 'rgba(0, 0, 0, 0.87)' } } : undefined
                }
              >
                <TableCell>{company.name}</TableCell>
                <TableCell>{company.email}</TableCell>
                <TableCell>{company.plan?.name ?? '-'}</TableCell>
                <TableCell align="center">{company.userCount}</TableCell>
                <TableCell align="center">{company.status ? t('accounts.yes') : t('accounts.no')}</TableCell>
                <TableCell>{formatDate(company.createdAt)}</TableCell>
                <TableCell data-testid={`company-due-${company.id}`}>{formatDate(company.dueDate)}</TableCell>
                <TableCell>
                  {company.recurrence ? t(`accounts.recurrence.${company.recurrence}`) : '-'}
                </TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <RowActions
                    testIdPrefix="company"
                    id={company.id}
                    editLabel={t('accounts.companies.editNamed', { name: company.name })}
                    onEdit={() => setModal({ record: company })}
                    deleteLabel={t('accounts.companies.deleteNamed', { name: company.name })}
                    onDelete={() => confirmDelete.ask(company)}
                  >
                    <ActionIconButton
                      label={t('accounts.companies.expireNamed', { name: company.name })}
                      testId={`company-expire-${company.id}`}
                      icon={<EventRepeatIcon fontSize="small" />}
                      onClick={() =>
                        extend.mutate(company.id, {
                          onSuccess: (row) =>
                            toast.success(
                              t('accounts.companies.extended', { date: formatDate(row.dueDate) }),
                            ),
                        })
                      }
                    />
                  </RowActions>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </RecordsTab>
  );
}
