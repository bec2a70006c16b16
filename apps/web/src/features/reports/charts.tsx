import { Box, Typography } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import type { AgentReportRow } from '@zapdesk/shared';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/**
 * Conversations handled and resolved per agent (bar chart, recharts: loaded by the reports page
 * only, after its data). The table above holds the same numbers, so the chart is hidden from
 * screen readers.
 */
export function AgentsChart({ rows }: { rows: AgentReportRow[] }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const data = rows.filter((row) => row.handled > 0 || row.resolved > 0);
  if (data.length === 0) return null;
  return (
    <Box sx={{ mt: 2 }} data-testid="report-agents-chart" aria-hidden>
      <Typography variant="subtitle2" color="text.secondary" sx={{ mb: 1 }}>
        {t('reports.charts.agents')}
      </Typography>
      <Box sx={{ width: '100%', height: 260 }}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 260 }}>
          <BarChart data={data} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="name" tick={{ fill: theme.palette.text.secondary, fontSize: 12 }} />
            <YAxis allowDecimals={false} tick={{ fill: theme.palette.text.secondary, fontSize: 12 }} />
            <Tooltip />
            <Legend />
            <Bar dataKey="handled" name={t('reports.columns.handled')} fill={theme.palette.primary.main} />
            <Bar
              dataKey="resolved"
              name={t('reports.columns.resolved')}
              fill={theme.palette.secondary.main}
            />
          </BarChart>
        </ResponsiveContainer>
      </Box>
    </Box>
  );
}
