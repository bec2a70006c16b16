import FileDownloadOutlined from '@mui/icons-material/FileDownloadOutlined';
import { Button, Stack } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { downloadReport, type ReportFileFormat, type ReportName, type ReportParams } from './use-reports';

const FORMATS: ReportFileFormat[] = ['csv', 'xlsx'];

/**
 * The CSV and XLSX buttons of a report: each downloads the report with the page's period and
 * filters (GET /reports/<name>?format=…, bearer token); a failure is toasted.
 */
export function DownloadButtons({ name, params }: { name: ReportName; params: ReportParams }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<ReportFileFormat | null>(null);
  const download = async (format: ReportFileFormat) => {
    setBusy(format);
    try {
      await downloadReport(name, params, format);
    } catch {
      toast.error(t('reports.downloadError'), { toastId: `report-download-${name}` });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Stack direction="row" spacing={1}>
      {FORMATS.map((format) => (
        <Button
          key={format}
          size="small"
          variant="outlined"
          startIcon={<FileDownloadOutlined aria-hidden />}
          disabled={busy !== null}
          onClick={() => void download(format)}
          aria-label={t('reports.download', {
            report: t(`reports.sections.${name}`),
            format: format.toUpperCase(),
          })}
          data-testid={`report-download-${name}-${format}`}
        >
          {format.toUpperCase()}
        </Button>
      ))}
    </Stack>
  );
}
