import { Box, Button, Stack, TextField, Typography } from '@mui/material';
import { type CompanySchedule, DEFAULT_COMPANY_SCHEDULES, ZCompanySchedule } from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { useSaveSchedules } from './use-settings';

type Field = 'startTime' | 'endTime';

/** Keeps digits only and inserts the colon: the '##:##' mask of document 3 section 5. */
export function maskTime(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}:${digits.slice(2)}` : digits;
}

/**
 * The company schedules tab (document 3 sections 3 and 5): one row per weekday with start and end
 * times ('HH:mm'); save sends PUT /companies/:id/schedules and shows the success toast. Invalid
 * times are marked and block the save.
 */
export function SchedulesTab({ companyId, schedules }: { companyId: number; schedules?: CompanySchedule[] }) {
  const { t } = useTranslation();
  const save = useSaveSchedules(companyId);
  const [rows, setRows] = useState<CompanySchedule[]>(schedules ?? DEFAULT_COMPANY_SCHEDULES);
  useEffect(() => {
    if (schedules) setRows(schedules);
  }, [schedules]);

  const invalid = (row: CompanySchedule, field: Field) =>
    !ZCompanySchedule.shape[field].safeParse(row[field]).success;
  const hasErrors = rows.some((row) => invalid(row, 'startTime') || invalid(row, 'endTime'));
  const setField = (weekdayEn: string, field: Field, value: string) =>
    setRows((current) =>
      current.map((r) => (r.weekdayEn === weekdayEn ? { ...r, [field]: maskTime(value) } : r)),
    );

  const onSave = () => save.mutate(rows, { onSuccess: () => toast.success(t('settings.toasts.success')) });

  return (
    <Stack spacing={1.5} sx={{ maxWidth: 560 }}>
      {rows.map((row) => (
        <Stack
          key={row.weekdayEn}
          direction="row"
          spacing={2}
          alignItems="center"
          data-testid={`schedule-row-${row.weekdayEn}`}
        >
          <Typography sx={{ width: 160 }}>{t(`settings.weekdays.${row.weekdayEn}`)}</Typography>
          {(['startTime', 'endTime'] as const).map((field) => (
            <TextField
              key={field}
              size="small"
              label={t(`settings.schedules.${field}`)}
              value={row[field]}
              error={invalid(row, field)}
              placeholder="HH:mm"
              onChange={(event) => setField(row.weekdayEn, field, event.target.value)}
              slotProps={{
                htmlInput: { 'data-testid': `schedule-${field}-${row.weekdayEn}`, inputMode: 'numeric' },
              }}
            />
          ))}
        </Stack>
      ))}
      <Box>
        <Button
          variant="contained"
          onClick={onSave}
          disabled={hasErrors || save.isPending}
          data-testid="schedules-save"
        >
          {t('settings.schedules.save')}
        </Button>
      </Box>
    </Stack>
  );
}
