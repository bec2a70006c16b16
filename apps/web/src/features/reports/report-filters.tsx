import { Button, MenuItem, Stack, TextField, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { IdOption } from '../common/id-select';
import { useQueueList } from '../queues/use-queues';
import { useTagOptions, useUserOptions } from '../tickets/use-tickets';
import { useConnectionOptions } from '../users/use-users';
import {
  isReportPeriod,
  lastDays,
  QUICK_PERIODS,
  REPORT_FILTERS,
  type ReportFilterName,
  type ReportParams,
} from './use-reports';

/** A multiple select of records by id; the chosen ones' names show joined. */
function IdMultiSelect({
  name,
  options,
  value,
  onChange,
}: {
  name: ReportFilterName;
  options: IdOption[] | undefined;
  value: number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const nameOf = (id: number) => options?.find((o) => o.id === id)?.name ?? `#${id}`;
  return (
    <TextField
      select
      size="small"
      label={t(`reports.filters.${name}`)}
      value={value}
      onChange={(event) => {
        const next = event.target.value as unknown as number[] | string;
        onChange(typeof next === 'string' ? next.split(',').map(Number) : next);
      }}
      sx={{ minWidth: 160, maxWidth: { xs: '100%', sm: 260 }, flex: { xs: '1 1 100%', sm: '0 1 auto' } }}
      slotProps={{
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) =>
            (selected as number[]).length
              ? (selected as number[]).map(nameOf).join(', ')
              : t('reports.filters.all'),
        },
        inputLabel: { shrink: true },
        htmlInput: { 'data-testid': `report-filter-${name}` },
      }}
    >
      {(options ?? []).map((option) => (
        <MenuItem key={option.id} value={option.id} data-testid={`report-filter-${name}-${option.id}`}>
          {option.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** One end of the period: the browser's own date field (yyyy-MM-dd), bounded by the other end. */
function PeriodDateField({
  label,
  value,
  onChange,
  error,
  helperText,
  bounds,
  testId,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: boolean;
  helperText?: string;
  bounds: { min?: string; max?: string };
  testId: string;
}) {
  // The browser's own date field and its calendar follow the colour mode.
  const colorScheme = useTheme().palette.mode;
  return (
    <TextField
      type="date"
      size="small"
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      helperText={helperText}
      slotProps={{
        inputLabel: { shrink: true },
        htmlInput: { 'data-testid': testId, ...bounds, style: { colorScheme } },
      }}
    />
  );
}

/**
 * The period picker (today, 7, 30 or 90 days ending today, or two days) and the queue, agent,
 * connection and tag filters; every change goes to `onChange` (the page writes it in the URL).
 */
export function ReportFilters({
  params,
  today,
  onChange,
}: {
  params: ReportParams;
  today: string;
  onChange: (next: ReportParams) => void;
}) {
  const { t } = useTranslation();
  const queues = useQueueList({ silent: true });
  const users = useUserOptions(true);
  const connections = useConnectionOptions(true);
  const tags = useTagOptions(true);
  const options: Record<ReportFilterName, IdOption[] | undefined> = {
    queueIds: queues.data,
    userIds: users.data,
    whatsappIds: connections.data,
    tagIds: tags.data,
  };
  const [from, setFrom] = useState(params.from);
  const [to, setTo] = useState(params.to);
  useEffect(() => {
    setFrom(params.from);
    setTo(params.to);
  }, [params.from, params.to]);
  const quick = QUICK_PERIODS.find((days) => {
    const period = lastDays(days, today);
    return period.from === params.from && period.to === params.to;
  });
  const editing = from !== params.from || to !== params.to;
  const periodError = editing && !isReportPeriod(from, to);
  const hasFilters = REPORT_FILTERS.some((name) => params[name].length > 0);

  return (
    <Stack spacing={2} sx={{ mb: 2 }} data-testid="report-filters">
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="flex-start">
        <ToggleButtonGroup
          size="small"
          exclusive
          value={quick ?? null}
          aria-label={t('reports.period.label')}
          onChange={(_event, days: number | null) => {
            if (days) onChange({ ...params, ...lastDays(days, today) });
          }}
          sx={{ flexWrap: 'wrap' }}
        >
          {QUICK_PERIODS.map((days) => (
            <ToggleButton key={days} value={days} data-testid={`report-period-${days}`}>
              {days === 1 ? t('reports.period.today') : t('reports.period.days', { count: days })}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
        <PeriodDateField
          label={t('reports.period.from')}
          value={from}
          onChange={setFrom}
          error={periodError}
          bounds={{ max: to }}
          testId="report-from"
        />
        <PeriodDateField
          label={t('reports.period.to')}
          value={to}
          onChange={setTo}
          error={periodError}
          helperText={periodError ? t('reports.period.invalid') : undefined}
          bounds={{ min: from }}
          testId="report-to"
        />
        <Button
          variant="contained"
          disabled={!editing || !isReportPeriod(from, to)}
          onClick={() => onChange({ ...params, from, to })}
          data-testid="report-apply-period"
        >
          {t('reports.period.apply')}
        </Button>
      </Stack>
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center">
        {REPORT_FILTERS.map((name) => (
          <IdMultiSelect
            key={name}
            name={name}
            options={options[name]}
            value={params[name]}
            onChange={(ids) => onChange({ ...params, [name]: ids })}
          />
        ))}
        {hasFilters && (
          <Button
            onClick={() => onChange({ ...params, queueIds: [], userIds: [], whatsappIds: [], tagIds: [] })}
            data-testid="report-clear-filters"
          >
            {t('reports.filters.clear')}
          </Button>
        )}
      </Stack>
    </Stack>
  );
}
