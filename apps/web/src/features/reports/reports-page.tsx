import { Alert, Box, Button, CircularProgress, Paper, Skeleton, Stack, Typography } from '@mui/material';
import type {
  AgentReport,
  AgentReportRow,
  HeatmapReport,
  QueueReport,
  QueueReportRow,
  ReportSummary,
} from '@zapdesk/shared';
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrentUser } from '../auth/session-context';
import { NoPermission } from '../common/no-permission';
import { usePlanGateRedirect } from '../common/plan-gate';
import { DownloadButtons } from './download-buttons';
import { formatDuration, formatNumber } from './format';
import { HeatmapTable } from './heatmap-table';
import { RatingCommentsList, useRatingCommentsPage } from './rating-comments';
import { ReportFilters } from './report-filters';
import { type ReportColumn, ReportTable } from './report-table';
import { isEmptyPeriod, SummaryCards } from './summary-cards';
import {
  type ReportName,
  type ReportParams,
  readReportParams,
  reportSearch,
  reportsToday,
  useReport,
} from './use-reports';

/* The chart (recharts) is a chunk of its own, fetched after the tables' data. */
const AgentsChart = lazy(() => import('./charts').then((m) => ({ default: m.AgentsChart })));

/** A report's box: its title, its CSV/XLSX buttons and its loading, error or loaded body. */
function ReportSection({
  name,
  params,
  query,
  children,
}: {
  name: ReportName;
  params: ReportParams;
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = `report-section-${name}-title`;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={titleId}
      sx={{ p: 2, mb: 2, minWidth: 0 }}
      data-testid={`report-section-${name}`}
    >
      <Stack
        direction="row"
        spacing={1}
        alignItems="center"
        justifyContent="space-between"
        flexWrap="wrap"
        useFlexGap
        sx={{ mb: 1.5 }}
      >
        <Typography variant="h6" component="h2" id={titleId}>
          {t(`reports.sections.${name}`)}
        </Typography>
        <DownloadButtons name={name} params={params} />
      </Stack>
      {query.isPending ? (
        <Box sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress size={28} aria-label={t('reports.loading')} />
        </Box>
      ) : query.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void query.refetch()}>
              {t('reports.retry')}
            </Button>
          }
          data-testid={`report-error-${name}`}
        >
          {t('reports.loadError')}
        </Alert>
      ) : (
        children
      )}
    </Paper>
  );
}

const duration = (value: unknown) => formatDuration(value as number | null);

/** The average, median and 90th percentile columns of each of `figures` (durations), in that order. */
function durationColumns<R>(...figures: ('wait' | 'firstResponse' | 'resolution')[]): ReportColumn<R>[] {
  return figures.flatMap((figure) =>
    (['Avg', 'Median', 'P90'] as const).map((stat) => ({
      key: `${figure}${stat}` as keyof R & string,
      labelKey: `reports.columns.${figure}${stat}`,
      numeric: true,
      format: duration,
    })),
  );
}

/** True when no row of a report has a figure (every number zero or missing). */
function noFigures<R extends object>(rows: R[], skip: (keyof R)[]): boolean {
  return rows.every((row) =>
    Object.entries(row).every(([key, value]) => skip.includes(key as keyof R) || !value),
  );
}

/** The reports of the period and filters: summary cards, agents and queues tables, heat map. */
function Reports({
  params,
  today,
  onChange,
}: {
  params: ReportParams;
  today: string;
  onChange: (next: ReportParams) => void;
}) {
  const { t, i18n } = useTranslation();
  const summary = useReport<ReportSummary>('summary', params);
  const agents = useReport<AgentReport>('agents', params);
  const queues = useReport<QueueReport>('queues', params);
  const heatmap = useReport<HeatmapReport>('heatmap', params);
  const comments = useRatingCommentsPage(params);
  const lang = i18n.language;
  const count = (value: unknown) => formatNumber(value as number | null, lang);

  const agentColumns: ReportColumn<AgentReportRow>[] = [
    { key: 'name', labelKey: 'reports.columns.agent' },
    { key: 'handled', labelKey: 'reports.columns.handled', numeric: true, format: count },
    { key: 'resolved', labelKey: 'reports.columns.resolved', numeric: true, format: count },
    { key: 'openNow', labelKey: 'reports.columns.openNow', numeric: true, format: count },
    ...durationColumns<AgentReportRow>('firstResponse', 'resolution'),
    { key: 'ratingCount', labelKey: 'reports.columns.ratingCount', numeric: true, format: count },
    {
      key: 'ratingAverage',
      labelKey: 'reports.columns.ratingAverage',
      numeric: true,
      format: (value) => formatNumber(value as number | null, lang, 2),
    },
  ];
  const queueColumns: ReportColumn<QueueReportRow>[] = [
    {
      key: 'name',
      labelKey: 'reports.columns.queue',
      format: (value) => (value as string | null) ?? t('reports.noQueue'),
    },
    { key: 'opened', labelKey: 'reports.columns.opened', numeric: true, format: count },
    { key: 'resolved', labelKey: 'reports.columns.resolved', numeric: true, format: count },
    { key: 'openNow', labelKey: 'reports.columns.openNow', numeric: true, format: count },
    { key: 'pendingNow', labelKey: 'reports.columns.pendingNow', numeric: true, format: count },
    ...durationColumns<QueueReportRow>('wait', 'firstResponse', 'resolution'),
  ];
  const agentRows = agents.data?.rows ?? [];
  const agentsEmpty = noFigures(agentRows, ['userId', 'name']);
  const queueRows = queues.data?.rows ?? [];
  const heatmapEmpty = (heatmap.data?.cells ?? []).every((cell) => cell.opened === 0);

  return (
    <>
      <ReportFilters params={params} today={today} onChange={onChange} />
      <ReportSection name="summary" params={params} query={summary}>
        {summary.data && isEmptyPeriod(summary.data.current) ? (
          <Alert severity="info" data-testid="report-empty">
            {t('reports.noData')}
          </Alert>
        ) : (
          summary.data && <SummaryCards summary={summary.data} />
        )}
      </ReportSection>
      <ReportSection name="agents" params={params} query={agents}>
        <ReportTable
          rows={agentRows}
          columns={agentColumns}
          rowKey={(row) => String(row.userId)}
          testId="report-agents"
          caption={t('reports.sections.agents')}
          empty={agentsEmpty}
        />
        {!agentsEmpty && (
          <Suspense fallback={<Skeleton variant="rounded" height={240} sx={{ mt: 2 }} />}>
            <AgentsChart rows={agentRows} />
          </Suspense>
        )}
      </ReportSection>
      <ReportSection name="queues" params={params} query={queues}>
        <ReportTable
          rows={queueRows}
          columns={queueColumns}
          rowKey={(row) => String(row.queueId ?? 'none')}
          testId="report-queues"
          caption={t('reports.sections.queues')}
          empty={noFigures(queueRows, ['queueId', 'name'])}
        />
      </ReportSection>
      <ReportSection name="heatmap" params={params} query={heatmap}>
        {heatmapEmpty ? (
          <Typography variant="body2" color="text.secondary">
            {t('reports.noData')}
          </Typography>
        ) : (
          heatmap.data && <HeatmapTable report={heatmap.data} />
        )}
      </ReportSection>
      <ReportSection name="ratingComments" params={params} query={comments.query}>
        <RatingCommentsList
          records={comments.query.data?.records ?? []}
          hasMore={comments.query.data?.hasMore === true}
          page={comments.page}
          onPage={comments.setPage}
        />
      </ReportSection>
    </>
  );
}

/**
 * /reports (docs/reports.md "Page"): for admins of a company whose plan has useReports (otherwise the
 * plan gate's toast and a redirect to /; agents see 'no permission'). The period (default the last 7
 * days, today included, in the reports' zone) and the queue, agent, connection and tag filters live
 * in the URL query under the API's names, so a report can be linked; each report has CSV and XLSX
 * downloads with the same filters.
 */
export function ReportsPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const admin = user.profile === 'admin' || user.super;
  const planAllows = user.super || user.company.plan?.useReports === true;
  usePlanGateRedirect(!admin || planAllows);
  const [search, setSearch] = useSearchParams();
  const today = useMemo(() => reportsToday(), []);
  const params = useMemo(() => readReportParams(search, today), [search, today]);
  const onChange = useCallback(
    (next: ReportParams) => setSearch(reportSearch(next), { replace: true }),
    [setSearch],
  );
  // The address always names the period shown (the default one included), so it can be linked.
  useEffect(() => {
    if (search.toString() !== reportSearch(params).toString()) onChange(params);
  }, [search, params, onChange]);
  return (
    <Box data-testid="reports-page" sx={{ p: 2, minWidth: 0, maxWidth: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {t('reports.title')}
      </Typography>
      {admin && planAllows ? <Reports params={params} today={today} onChange={onChange} /> : <NoPermission />}
    </Box>
  );
}
