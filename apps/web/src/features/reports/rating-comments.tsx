import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RatingComment, RatingCommentsPage } from '@zapdesk/shared';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { intlLocale } from './format';
import { ReportTableRegion } from './report-table';
import { REPORTS_ZONE, type ReportParams, reportSearch } from './use-reports';

/**
 * One page (1-based) of GET /reports/ratings/comments for the page's period and filters: the low
 * ratings' comments, newest first. Failures show in the section (no global toast).
 */
export function useRatingComments(params: ReportParams, page: number) {
  return useQuery({
    queryKey: ['reports', 'ratingComments', params, page] as const,
    queryFn: ({ signal }) =>
      api.get<RatingCommentsPage>(
        '/reports/ratings/comments',
        { ...Object.fromEntries(reportSearch(params)), pageNumber: String(page) },
        signal,
      ),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
}

/**
 * The comments of low ratings (1 of 3) of the period (docs/reports.md "CSAT comments"): when, the
 * customer, the agent rated and the comment, a page at a time with older/newer buttons; the empty
 * period's text when there are none. `page` is 1-based.
 */
export function RatingCommentsList({
  records,
  hasMore,
  page,
  onPage,
}: {
  records: RatingComment[];
  hasMore: boolean;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const when = new Intl.DateTimeFormat(intlLocale(i18n.language), {
    dateStyle: 'short',
    timeStyle: 'short',
    timeZone: REPORTS_ZONE,
  });
  if (!records.length && page === 1)
    return (
      <Typography variant="body2" color="text.secondary" data-testid="rating-comments-empty">
        {t('reports.ratingComments.empty')}
      </Typography>
    );
  const caption = t('reports.sections.ratingComments');
  return (
    <>
      <ReportTableRegion caption={caption}>
        <Table size="small" aria-label={caption} data-testid="rating-comments">
          <TableHead>
            <TableRow>
              <TableCell>{t('reports.ratingComments.when')}</TableCell>
              <TableCell>{t('reports.ratingComments.contact')}</TableCell>
              <TableCell>{t('reports.ratingComments.agent')}</TableCell>
              <TableCell>{t('reports.ratingComments.comment')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {records.map((record) => (
              <TableRow key={record.id} data-testid={`rating-comment-${record.id}`}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{when.format(new Date(record.createdAt))}</TableCell>
                <TableCell>{record.contactName ?? '–'}</TableCell>
                <TableCell>{record.userName ?? '–'}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {record.comment}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ReportTableRegion>
      <Stack direction="row" spacing={1} justifyContent="flex-end" sx={{ mt: 1 }}>
        <Button size="small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          {t('reports.ratingComments.newer')}
        </Button>
        <Button size="small" disabled={!hasMore} onClick={() => onPage(page + 1)}>
          {t('reports.ratingComments.older')}
        </Button>
      </Stack>
    </>
  );
}

/** The list's state: back to the first page whenever the period or the filters change. */
export function useRatingCommentsPage(params: ReportParams) {
  const [page, setPage] = useState(1);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new period or filter starts over.
  useEffect(() => setPage(1), [params]);
  return { page, setPage, query: useRatingComments(params, page) };
}
