import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Grid,
  Paper,
  Rating,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { DASHBOARD_PERIODS, type DashboardCounters } from '@zapdesk/shared';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showToast } from '../../lib/notify';
import { OutlinedNativeSelect } from '../common/outlined-native-select';
import { formatMinutes } from './format';
import { applyFilter, type DashboardFilter, useDashboard } from './use-dashboard';

/* The charts (recharts, the heaviest library of the app) arrive after the counters: a chunk of their own. */
/** The date pickers (MUI X, date-fns locales), loaded when the date-range filter is chosen. */
const DateInput = lazy(() => import('../common/date-input').then((m) => ({ default: m.DateInput })));
const UsersChart = lazy(() => import('./charts').then((m) => ({ default: m.UsersChart })));
const DaysChart = lazy(() => import('./charts').then((m) => ({ default: m.DaysChart })));

/** The first load waits this long (core section 9). */
export const DASHBOARD_FIRST_LOAD_DELAY_MS = 1000;

/** The counter cards; `help` says what a counter counts where its name alone could mislead. */
const COUNTERS: { key: keyof DashboardCounters; time?: boolean; help?: boolean }[] = [
  { key: 'supportHappening' },
  { key: 'supportPending' },
  { key: 'supportFinished' },
  { key: 'leads', help: true },
  { key: 'avgSupportTime', time: true },
  { key: 'avgWaitTime', time: true },
];

/** True after `ms` milliseconds from mount. */
function useDelayed(ms: number): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setReady(true), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return ready;
}

/**
 * The dashboard at / for admins (core sections 2, 5 and 9): counter cards, a filter by period
 * (none, 3..90 days) or date range ('selectFilterError' when none is chosen), the attendants table
 * with 0..3 stars and online dot, and the tickets-per-user and tickets-per-day charts with their own
 * date filters. Times show as 'HH h mm m'. The first load waits 1 s.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const ready = useDelayed(DASHBOARD_FIRST_LOAD_DELAY_MS);
  const [filterType, setFilterType] = useState<'period' | 'date'>('period');
  const [period, setPeriod] = useState('');
  const [dateFrom, setDateFrom] = useState('');
  const [dateTo, setDateTo] = useState('');
  const [applied, setApplied] = useState<DashboardFilter>({});
  const dashboard = useDashboard(applied, ready);

  const onFilter = () => {
    if (filterType === 'period') {
      if (!period) {
        showToast('error', t('dashboard.selectFilterError'), { toastId: 'dashboard-filter' });
        return;
      }
      applyFilter(applied, { days: Number(period) }, setApplied, dashboard.refetch);
    } else {
      if (!dateFrom || !dateTo) {
        showToast('error', t('dashboard.selectFilterError'), { toastId: 'dashboard-filter' });
        return;
      }
      applyFilter(applied, { date_from: dateFrom, date_to: dateTo }, setApplied, dashboard.refetch);
    }
  };

  const counters = dashboard.data?.counters;
  const attendants = dashboard.data?.attendants ?? [];

  return (
    <Box data-testid="dashboard-page" sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ mb: 2 }} flexWrap="wrap" useFlexGap alignItems="center">
        <OutlinedNativeSelect
          label={t('dashboard.filterType')}
          value={filterType}
          onChange={(value) => setFilterType(value as 'period' | 'date')}
          testId="dashboard-filter-type"
        >
          <option value="period">{t('dashboard.filterByPeriod')}</option>
          <option value="date">{t('dashboard.filterByDate')}</option>
        </OutlinedNativeSelect>
        {filterType === 'period' ? (
          <OutlinedNativeSelect
            label={t('dashboard.period')}
            value={period}
            onChange={setPeriod}
            testId="dashboard-period"
            sx={{ minWidth: 180 }}
          >
            <option value="">{t('dashboard.periods.none')}</option>
            {DASHBOARD_PERIODS.map((days) => (
              <option key={days} value={String(days)}>
                {t('dashboard.periods.days', { count: days })}
              </option>
            ))}
          </OutlinedNativeSelect>
        ) : (
          <Suspense fallback={<CircularProgress size={24} aria-label="loading" />}>
            <DateInput
              label={t('dashboard.initialDate')}
              value={dateFrom}
              onChange={setDateFrom}
              testId="dashboard-date-from"
            />
            <DateInput
              label={t('dashboard.finalDate')}
              value={dateTo}
              onChange={setDateTo}
              testId="dashboard-date-to"
            />
          </Suspense>
        )}
        <Button variant="contained" onClick={onFilter} data-testid="dashboard-filter">
          {t('dashboard.filter')}
        </Button>
      </Stack>

      {dashboard.isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t('dashboard.loadError')}
        </Alert>
      )}

      <Grid container spacing={2} sx={{ mb: 2 }}>
        {COUNTERS.map(({ key, time, help }) => (
          <Grid key={key} size={{ xs: 12, sm: 6, md: 4, lg: 2 }}>
            <Paper variant="outlined" sx={{ p: 2 }} data-testid={`counter-${key}`}>
              <Typography variant="body2" color="text.secondary">
                {t(`dashboard.counters.${key}`)}
              </Typography>
              <Typography variant="h5" data-testid={`counter-${key}-value`}>
                {counters ? (time ? formatMinutes(counters[key]) : counters[key]) : '–'}
              </Typography>
              {help && (
                <Typography variant="caption" color="text.secondary" data-testid={`counter-${key}-help`}>
                  {t(`dashboard.countersHelp.${key}`)}
                </Typography>
              )}
            </Paper>
          </Grid>
        ))}
      </Grid>

      <Paper variant="outlined" sx={{ mb: 2 }}>
        {dashboard.isPending ? (
          <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
            <CircularProgress size={28} aria-label={t('dashboard.loading')} />
          </Box>
        ) : (
          <TableContainer>
            <Table size="small" data-testid="attendants-table">
              <TableHead>
                <TableRow>
                  <TableCell>{t('dashboard.attendants.name')}</TableCell>
                  <TableCell align="center">{t('dashboard.attendants.rating')}</TableCell>
                  <TableCell align="center">{t('dashboard.attendants.avgSupportTime')}</TableCell>
                  <TableCell align="center">{t('dashboard.attendants.status')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {attendants.length === 0 && (
                  <TableRow>
                    <TableCell colSpan={4}>{t('dashboard.noData')}</TableCell>
                  </TableRow>
                )}
                {attendants.map((user) => (
                  <TableRow key={user.id} data-testid={`attendant-row-${user.id}`}>
                    <TableCell>{user.name}</TableCell>
                    <TableCell align="center">
                      <Rating value={user.rating} max={3} precision={0.1} readOnly size="small" />
                    </TableCell>
                    <TableCell align="center">{formatMinutes(user.avgSupportTime)}</TableCell>
                    <TableCell align="center">
                      <Box
                        component="span"
                        data-testid={`attendant-online-${user.id}`}
                        data-online={user.online}
                        title={t(
                          user.online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline',
                        )}
                        aria-label={t(
                          user.online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline',
                        )}
                        sx={{
                          display: 'inline-block',
                          width: 12,
                          height: 12,
                          borderRadius: '50%',
                          bgcolor: user.online ? 'success.main' : 'error.main',
                        }}
                      />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </Paper>

      <Grid container spacing={2}>
        {/* The charts' code (recharts) is asked for once the first load's wait is over, after the
            counters' own code: it does not compete with them on a slow network. */}
        <Grid size={{ xs: 12, md: 6 }}>
          <Suspense fallback={<Skeleton variant="rounded" height={320} />}>
            {ready ? <UsersChart enabled /> : <Skeleton variant="rounded" height={320} />}
          </Suspense>
        </Grid>
        <Grid size={{ xs: 12, md: 6 }}>
          <Suspense fallback={<Skeleton variant="rounded" height={320} />}>
            {ready ? <DaysChart enabled /> : <Skeleton variant="rounded" height={320} />}
          </Suspense>
        </Grid>
      </Grid>
    </Box>
  );
}
