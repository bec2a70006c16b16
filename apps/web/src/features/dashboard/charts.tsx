import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from '@mui/material';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { DateInput } from '../common/date-input';
import { shortDay, todayIso } from './format';
import { applyFilter, type ChartRange, useTicketsDay, useTicketsUsers } from './use-dashboard';

/** Start/end date inputs and a filter button; the range applies only on filter. */
function RangeFilter({ id, onApply }: { id: string; onApply: (range: ChartRange) => void }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<ChartRange>({ initialDate: todayIso(), finalDate: todayIso() });
  const apply = () => {
    if (!range.initialDate || !range.finalDate) {
      toast.error(t('dashboard.selectFilterError'));
      return;
    }
    onApply(range);
  };
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 2 }} flexWrap="wrap" useFlexGap>
      {(['initialDate', 'finalDate'] as const).map((field) => (
        <DateInput
          key={field}
          label={t(`dashboard.${field}`)}
          value={range[field]}
          onChange={(value) => setRange((r) => ({ ...r, [field]: value }))}
          testId={`${id}-${field}`}
        />
      ))}
      <Button variant="contained" onClick={apply} data-testid={`${id}-filter`}>
        {t('dashboard.filter')}
      </Button>
    </Stack>
  );
}

/** Loading, error and empty states around a chart body. */
function ChartState({
  pending,
  error,
  empty,
  children,
}: {
  pending: boolean;
  error: boolean;
  empty: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  if (pending)
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
        <CircularProgress size={28} aria-label={t('dashboard.loading')} />
      </Box>
    );
  if (error) return <Alert severity="error">{t('dashboard.loadError')}</Alert>;
  if (empty) return <Typography color="text.secondary">{t('dashboard.noData')}</Typography>;
  return <Box sx={{ width: '100%', height: 300 }}>{children}</Box>;
}

/** Tickets per user (bar chart) with its own date range (core section 2 Dashboard). */
export function UsersChart({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<ChartRange>({ initialDate: todayIso(), finalDate: todayIso() });
  const query = useTicketsUsers(range, enabled);
  useEffect(() => {
    if (query.isError) toast.error(t('dashboard.usersChartError'), { toastId: 'dashboard-users-chart' });
  }, [query.isError, t]);
  const data = query.data?.data ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="chart-users">
      <Typography variant="h6" gutterBottom>
        {t('dashboard.usersChart', { count: query.data?.count ?? 0 })}
      </Typography>
      <RangeFilter id="chart-users" onApply={(next) => applyFilter(range, next, setRange, query.refetch)} />
      <ChartState pending={query.isPending} error={query.isError} empty={data.length === 0}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 300 }}>
          <BarChart data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="nome" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Bar dataKey="quantidade" name={t('dashboard.tickets')} fill="#2576d2" />
          </BarChart>
        </ResponsiveContainer>
      </ChartState>
    </Paper>
  );
}

/** Tickets per day, or per hour for a single day (line chart), with its own date range. */
export function DaysChart({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  const [range, setRange] = useState<ChartRange>({ initialDate: todayIso(), finalDate: todayIso() });
  const query = useTicketsDay(range, enabled);
  useEffect(() => {
    if (query.isError) toast.error(t('dashboard.daysChartError'), { toastId: 'dashboard-days-chart' });
  }, [query.isError, t]);
  const data = (query.data?.data ?? []).map((row) => ({
    label:
      row.horario !== undefined ? `${String(row.horario).padStart(2, '0')}:00` : shortDay(row.data ?? ''),
    total: row.total,
  }));
  return (
    <Paper variant="outlined" sx={{ p: 2 }} data-testid="chart-days">
      <Typography variant="h6" gutterBottom>
        {t('dashboard.daysChart', { count: query.data?.count ?? 0 })}
      </Typography>
      <RangeFilter id="chart-days" onApply={(next) => applyFilter(range, next, setRange, query.refetch)} />
      <ChartState pending={query.isPending} error={query.isError} empty={data.length === 0}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 300 }}>
          <LineChart data={data}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="label" />
            <YAxis allowDecimals={false} />
            <Tooltip />
            <Line type="monotone" dataKey="total" name={t('dashboard.tickets')} stroke="#2576d2" />
          </LineChart>
        </ResponsiveContainer>
      </ChartState>
    </Paper>
  );
}
