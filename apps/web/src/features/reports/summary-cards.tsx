import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Remove from '@mui/icons-material/Remove';
import { Box, Grid, Paper, Stack, Typography } from '@mui/material';
import type { DurationStats, ReportFigures, ReportSummary } from '@zapdesk/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDuration, formatNumber, formatRate, trendOf } from './format';

/** One SLA target's figures: tickets it applied to, those that met it, and met / tracked (0..1, null when none). */
export interface SlaPart {
  tracked: number;
  met: number;
  rate: number | null;
}
/** The period's SLA hit rates, when the summary carries them (optional: older servers send none). */
export interface SlaFigures {
  firstResponse: SlaPart;
  resolution: SlaPart;
}
/** A period's figures, with the SLA part the summary may carry. */
export type FiguresWithSla = ReportFigures & { sla?: SlaFigures | null };

/**
 * The change of a figure versus the previous period: an arrow and the percent, coloured green when
 * it moved the good way (`better`), red the other way, grey when no way is better or nothing moved.
 */
export function TrendBadge({
  current,
  previous,
  better,
  testId,
  format,
}: {
  current: number | null | undefined;
  previous: number | null | undefined;
  /** Which way is an improvement; undefined for a count that is neither good nor bad. */
  better?: 'up' | 'down';
  testId: string;
  /** How the previous value shows (a number by default). */
  format?: (value: number | null | undefined) => string;
}) {
  const { t, i18n } = useTranslation();
  const { direction, change } = trendOf(current, previous);
  const Icon = direction === 'up' ? ArrowUpward : direction === 'down' ? ArrowDownward : Remove;
  const color =
    direction === 'flat' || !better ? 'text.secondary' : direction === better ? 'success.main' : 'error.main';
  const percent =
    change === null
      ? ''
      : `${change > 0 ? '+' : ''}${formatRate(change, i18n.language)}`.replace(/^\+-/, '-');
  const said = t(`reports.trend.${direction}`, { percent: percent || '–' });
  return (
    <Stack
      direction="row"
      spacing={0.5}
      alignItems="center"
      data-testid={testId}
      data-direction={direction}
      sx={{ color }}
    >
      <Icon fontSize="small" aria-hidden />
      <Typography variant="caption" component="span" sx={{ color: 'inherit', fontWeight: 500 }}>
        <Box component="span" aria-hidden>
          {percent || '–'}
        </Box>
        <Box component="span" sx={visuallyHidden}>
          {said}
        </Box>
      </Typography>
      <Typography variant="caption" component="span" color="text.secondary">
        {t('reports.trend.vsPrevious', {
          value: format ? format(previous) : formatNumber(previous, i18n.language, 2),
        })}
      </Typography>
    </Stack>
  );
}

/** Hidden on screen, read by screen readers. */
const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** A summary card: its name, its value, details below and the trend. */
function Card({
  id,
  title,
  value,
  children,
}: {
  id: string;
  title: string;
  value: string;
  children?: ReactNode;
}) {
  return (
    <Grid size={{ xs: 12, sm: 6, lg: 3 }}>
      <Paper
        variant="outlined"
        component="section"
        aria-labelledby={`report-card-${id}-title`}
        sx={{ p: 2, height: '100%' }}
        data-testid={`report-card-${id}`}
      >
        <Typography variant="body2" color="text.secondary" component="h3" id={`report-card-${id}-title`}>
          {title}
        </Typography>
        <Typography variant="h5" component="p" data-testid={`report-card-${id}-value`}>
          {value}
        </Typography>
        {children}
      </Paper>
    </Grid>
  );
}

/** A duration card: average as the value, median and p90 below, the trend of the average. */
function DurationCard({
  id,
  current,
  previous,
}: {
  id: string;
  current: DurationStats;
  previous: DurationStats;
}) {
  const { t } = useTranslation();
  return (
    <Card id={id} title={t(`reports.cards.${id}`)} value={formatDuration(current.avg)}>
      <Typography
        variant="caption"
        component="p"
        color="text.secondary"
        data-testid={`report-card-${id}-detail`}
      >
        {t('reports.cards.durationDetail', {
          median: formatDuration(current.median),
          p90: formatDuration(current.p90),
          count: current.count,
        })}
      </Typography>
      <TrendBadge
        current={current.avg}
        previous={previous.avg}
        better="down"
        testId={`report-card-${id}-trend`}
        format={formatDuration}
      />
    </Card>
  );
}

/** The SLA hit-rate card: nothing when the summary carries no SLA figures. */
export function SlaCard({ current, previous }: { current: FiguresWithSla; previous: FiguresWithSla }) {
  const { t, i18n } = useTranslation();
  const sla = current.sla;
  if (!sla) return null;
  const parts = ['firstResponse', 'resolution'] as const;
  return (
    <Card id="sla" title={t('reports.cards.sla')} value={formatRate(sla.firstResponse.rate, i18n.language)}>
      {parts.map((part) => (
        <Box key={part} sx={{ mt: 0.5 }} data-testid={`report-card-sla-${part}`}>
          <Typography variant="caption" component="p" color="text.secondary">
            {t(`reports.cards.sla_${part}`, {
              rate: formatRate(sla[part].rate, i18n.language),
              met: sla[part].met,
              tracked: sla[part].tracked,
            })}
          </Typography>
          <TrendBadge
            current={sla[part].rate}
            previous={previous.sla?.[part].rate}
            better="up"
            testId={`report-card-sla-${part}-trend`}
            format={(value) => formatRate(value, i18n.language)}
          />
        </Box>
      ))}
    </Card>
  );
}

/** True when the period has no figure at all (nothing opened, resolved, answered or rated). */
export function isEmptyPeriod(figures: ReportFigures): boolean {
  return (
    figures.opened === 0 &&
    figures.resolved === 0 &&
    figures.firstResponse.count === 0 &&
    figures.wait.count === 0 &&
    figures.csat.count === 0
  );
}

/**
 * The summary cards (docs/reports.md "Page"): opened (created + reopened), resolved, first response,
 * resolution and wait (average, median and p90 as durations), CSAT (average and the 1–3 distribution),
 * and the SLA hit rates when the summary has them; each with its trend versus the previous period.
 */
export function SummaryCards({ summary }: { summary: ReportSummary }) {
  const { t, i18n } = useTranslation();
  // The server sends the period's service levels beside the figures (`summary.sla`).
  const inner = summary.current as FiguresWithSla;
  const current: FiguresWithSla = summary.sla ? { ...inner, sla: summary.sla } : inner;
  const previous = summary.previous as FiguresWithSla;
  const lang = i18n.language;
  const rates = [1, 2, 3].map((rate) => ({
    rate,
    count: current.csat.distribution.find((d) => d.rate === rate)?.count ?? 0,
  }));
  return (
    <Grid container spacing={2} data-testid="report-cards">
      <Card id="opened" title={t('reports.cards.opened')} value={formatNumber(current.opened, lang)}>
        <Typography variant="caption" component="p" color="text.secondary">
          {t('reports.cards.openedDetail', { created: current.created, reopened: current.reopened })}
        </Typography>
        <TrendBadge current={current.opened} previous={previous.opened} testId="report-card-opened-trend" />
      </Card>
      <Card id="resolved" title={t('reports.cards.resolved')} value={formatNumber(current.resolved, lang)}>
        <TrendBadge
          current={current.resolved}
          previous={previous.resolved}
          better="up"
          testId="report-card-resolved-trend"
        />
      </Card>
      <DurationCard id="firstResponse" current={current.firstResponse} previous={previous.firstResponse} />
      <DurationCard id="resolution" current={current.resolution} previous={previous.resolution} />
      <DurationCard id="wait" current={current.wait} previous={previous.wait} />
      <Card
        id="csat"
        title={t('reports.cards.csat')}
        value={current.csat.average === null ? '–' : `${formatNumber(current.csat.average, lang, 2)} / 3`}
      >
        <Typography
          variant="caption"
          component="p"
          color="text.secondary"
          data-testid="report-card-csat-detail"
        >
          {t('reports.cards.csatDetail', { count: current.csat.count })}
        </Typography>
        <Stack component="ul" direction="row" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {rates.map(({ rate, count }) => (
            <Typography
              key={rate}
              component="li"
              variant="caption"
              data-testid={`report-card-csat-rate-${rate}`}
            >
              {t('reports.cards.csatRate', { rate, count })}
            </Typography>
          ))}
        </Stack>
        <TrendBadge
          current={current.csat.average}
          previous={previous.csat.average}
          better="up"
          testId="report-card-csat-trend"
        />
      </Card>
      <SlaCard current={current} previous={previous} />
    </Grid>
  );
}
