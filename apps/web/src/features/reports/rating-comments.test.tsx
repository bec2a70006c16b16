import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RatingComment, RatingCommentsPage } from '@zapdesk/shared';
import { describe, expect, it } from 'vitest';
import { json, stubFetch } from '../../test/http';
import { renderWithProviders } from '../../test/render';
import { RatingCommentsList, useRatingCommentsPage } from './rating-comments';
import { type ReportParams, reportFileUrl } from './use-reports';

const PARAMS: ReportParams = {
  from: '2026-11-21',
  to: '2026-11-27',
  queueIds: [3],
  userIds: [],
  whatsappIds: [],
  tagIds: [],
};

const comment = (id: number, text: string): RatingComment => ({
  id,
  rate: 1,
  comment: text,
  createdAt: '2026-11-25T15:30:00.000Z',
  ticketId: 40 + id,
  ticketUuid: null,
  contactName: `Cliente ${id}`,
  userId: 7,
  userName: 'Ana',
});

const PAGES: Record<string, RatingCommentsPage> = {
  '1': { records: [comment(2, 'demorou muito'), comment(1, 'ninguém respondeu')], hasMore: true },
  '2': { records: [comment(0, 'resposta errada')], hasMore: false },
};

function Harness({ params }: { params: ReportParams }) {
  const { page, setPage, query } = useRatingCommentsPage(params);
  return query.data ? (
    <RatingCommentsList
      records={query.data.records}
      hasMore={query.data.hasMore}
      page={page}
      onPage={setPage}
    />
  ) : null;
}

describe('RatingCommentsList', () => {
  const fetchMock = stubFetch(({ url }) => {
    const search = new URL(url, 'http://localhost').searchParams;
    if (!url.startsWith('/api/reports/ratings/comments')) return json(404, { error: 'ERR_NOT_FOUND' });
    if (search.get('from') === '2026-01-01') return json(200, { records: [], hasMore: false });
    return json(200, PAGES[search.get('pageNumber') ?? '']);
  });

  it('lists the comments of the period with their customer and agent, page by page', async () => {
    renderWithProviders(<Harness params={PARAMS} />);
    const table = await screen.findByTestId('rating-comments');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Date', 'Customer', 'Agent', 'Comment']);
    expect(within(screen.getByTestId('rating-comment-2')).getByText('demorou muito')).toBeTruthy();
    expect(screen.getByTestId('rating-comment-1').textContent).toContain('Cliente 1');
    expect(screen.getByTestId('rating-comment-1').textContent).toContain('Ana');
    const first = String(fetchMock.mock.calls[0]![0]);
    expect(first).toContain('queueIds=3');
    expect(first).toContain('pageNumber=1');

    expect(screen.getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(screen.queryByTestId('rating-comment-0')).toBeTruthy());
    expect(screen.queryByTestId('rating-comment-2')).toBeNull();
    expect(screen.getByRole('button', { name: 'Older' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Newer' }));
    expect(await screen.findByTestId('rating-comment-2')).toBeTruthy();
  });

  it('says so when the period has no low rating with a comment, and downloads from its own path', async () => {
    renderWithProviders(<Harness params={{ ...PARAMS, from: '2026-01-01' }} />);
    expect((await screen.findByTestId('rating-comments-empty')).textContent).toBe(
      'No low rating with a comment in the period.',
    );
    expect(reportFileUrl('ratingComments', PARAMS, 'csv')).toMatch(
      /\/reports\/ratings\/comments\?from=2026-11-21&to=2026-11-27&queueIds=3&format=csv$/,
    );
  });
});
