import ArrowBack from '@mui/icons-material/ArrowBack';
import {
  Box,
  Button,
  CircularProgress,
  LinearProgress,
  MenuItem,
  Paper,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import {
  CAMPAIGN_SHIPPING_STATUSES,
  type CampaignShippingStatus,
  type CampaignTotals,
} from '@zapdesk/shared';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../lib/format';
import { DataTable } from '../common/data-table';
import { NotFoundPage } from '../common/not-found-page';
import { usePageRows, useSearchParam } from '../common/use-list-page';
import { CampaignStatusChip } from './campaign-status';
import { campaignKeys, useCampaign, useCampaignShippings } from './use-campaigns';

/** The report reloads this long after its campaign reaches FINALIZADA (document 2 section 4). */
export const REPORT_RELOAD_DELAY_MS = 5000;

const TOTALS = ['recipients', 'delivered', 'pending', 'failed', 'skipped', 'confirmed'] as const;

/** Percentage (0–100) of the recipients done: delivered, failed or skipped (opted out). */
export function campaignProgress(totals: CampaignTotals): number {
  if (totals.recipients <= 0) return 0;
  const done = totals.delivered + totals.failed + totals.skipped;
  return Math.min(100, Math.round((done / totals.recipients) * 100));
}

/** /campaign/:campaignId/report: a numeric id, or the not-found page. */
export function CampaignReportPage() {
  const { campaignId } = useParams();
  const id = Number(campaignId);
  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  return <CampaignReport id={id} />;
}

/**
 * A campaign's report: totals (recipients, delivered, pending, failed, skipped,
 * confirmed) from GET /campaigns/:id, a progress bar kept live by `company-{id}-campaign`, and the
 * recipients (GET /campaigns/:id/shippings) page by page. When the campaign becomes FINALIZADA it
 * reloads after 5 s (document 2 section 4).
 */
function CampaignReport({ id }: { id: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const report = useCampaign(id);
  const [search, setSearch, searchParam] = useSearchParam();
  const [shippingStatus, setShippingStatus] = useState<CampaignShippingStatus | ''>('');
  const shippings = useCampaignShippings(id, searchParam, shippingStatus);
  const rows = usePageRows(shippings, 'records');
  const status = report.data?.status;
  const previous = useRef(status);

  useEffect(() => {
    const was = previous.current;
    previous.current = status;
    if (status !== 'FINALIZADA' || was === undefined || was === 'FINALIZADA') return;
    const timer = setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: campaignKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: campaignKeys.shippings(id) });
    }, REPORT_RELOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [status, id, queryClient]);

  if (report.isPending)
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', p: 4 }}>
        <CircularProgress />
      </Box>
    );
  if (!report.data) return <NotFoundPage />;
  const campaign = report.data;
  const { totals } = campaign;
  const progress = campaignProgress(totals);

  return (
    <Stack spacing={2} sx={{ height: 'calc(100vh - 112px)' }}>
      <Stack direction="row" spacing={2} alignItems="center">
        <Button startIcon={<ArrowBack />} onClick={() => navigate('/campaigns')}>
          {t('campaigns.report.back')}
        </Button>
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          {t('campaigns.report.title', { name: campaign.name })}
        </Typography>
        <CampaignStatusChip status={campaign.status} testId="campaign-report-status" />
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        {TOTALS.map((key) => (
          <Paper key={key} variant="outlined" sx={{ p: 2, flex: 1 }}>
            <Typography variant="body2" color="text.secondary">
              {t(`campaigns.report.totals.${key}`)}
            </Typography>
            <Typography variant="h5" data-testid={`campaign-report-${key}`}>
              {totals[key]}
            </Typography>
          </Paper>
        ))}
      </Stack>
      <Box>
        <Stack direction="row" justifyContent="space-between">
          <Typography variant="body2">{t('campaigns.report.progress')}</Typography>
          <Typography variant="body2" data-testid="campaign-report-percent">
            {progress}%
          </Typography>
        </Stack>
        <LinearProgress
          variant="determinate"
          value={progress}
          aria-label={t('campaigns.report.progress')}
          data-testid="campaign-report-progress"
        />
        <Typography variant="caption" color="text.secondary">
          {campaign.scheduledAt &&
            t('campaigns.report.scheduledAt', { date: formatDateTime(campaign.scheduledAt) })}
          {campaign.completedAt &&
            ` ${t('campaigns.report.completedAt', { date: formatDateTime(campaign.completedAt) })}`}
        </Typography>
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <TextField
          size="small"
          placeholder={t('campaigns.report.search')}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          slotProps={{
            htmlInput: {
              'aria-label': t('campaigns.report.search'),
              'data-testid': 'campaign-report-search',
            },
          }}
        />
        <TextField
          select
          size="small"
          sx={{ minWidth: 200 }}
          label={t('campaigns.report.table.status')}
          value={shippingStatus}
          onChange={(e) => setShippingStatus(e.target.value as CampaignShippingStatus | '')}
          slotProps={{
            htmlInput: { 'data-testid': 'campaign-report-status-filter' },
            select: { displayEmpty: true },
            inputLabel: { shrink: true },
          }}
        >
          <MenuItem value="">{t('campaigns.report.allStatuses')}</MenuItem>
          {CAMPAIGN_SHIPPING_STATUSES.map((s) => (
            <MenuItem key={s} value={s}>
              {t(`campaigns.report.shippingStatus.${s}`)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <DataTable
        testId="campaign-report-table"
        pages={shippings}
        columns={[
          { label: t('campaigns.report.table.name') },
          { label: t('campaigns.report.table.number') },
          { label: t('campaigns.report.table.status'), align: 'center' },
          { label: t('campaigns.report.table.deliveredAt'), align: 'center' },
          { label: t('campaigns.report.table.confirmedAt'), align: 'center' },
        ]}
      >
        {rows.map((row) => (
          <TableRow key={row.id} data-testid={`campaign-shipping-${row.id}`}>
            <TableCell>{row.name}</TableCell>
            <TableCell>{row.number}</TableCell>
            <TableCell align="center" title={row.error ?? undefined}>
              {t(`campaigns.report.shippingStatus.${row.status}`, { defaultValue: row.status })}
            </TableCell>
            <TableCell align="center">{formatDateTime(row.deliveredAt)}</TableCell>
            <TableCell align="center">{formatDateTime(row.confirmedAt)}</TableCell>
          </TableRow>
        ))}
      </DataTable>
    </Stack>
  );
}
