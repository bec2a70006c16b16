/** Comments of low ratings: kept with the rating, listed by the reports to the company only. */
import { RATING_COMMENT_MAX, RATING_COMMENTS_PAGE_SIZE } from '@zapdesk/shared';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { parseRatingAnswer } from '../../automation/ratings.js';
import { userRatings } from '../../db/schema/index.js';
import { localToday } from '../../lib/local-days.js';
import { inject, t, useAppSuite } from '../../test/app-suite.js';
import { type ConnectedTenant, openOneQueueTenant, putSetting } from '../../test/conversation.js';
import { bearer, createTenant, customerNumber, injectMessage, type TestUser } from '../../test/factories.js';

useAppSuite();

/** Yesterday and today in the reports' zone: the period of ratings given just now, whatever the hour. */
const period = () => [localToday(new Date(Date.now() - 86_400_000)), localToday()] as const;

const get = (user: TestUser, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(user) });

/** A customer writes, the admin accepts and closes the ticket, the customer answers `answer`. */
async function rated(s: ConnectedTenant, answer: string): Promise<number> {
  const from = customerNumber();
  const { ticketId } = await injectMessage(t.app, s.admin, s.whatsappId, {
    from,
    body: 'Oi',
    name: 'Ana Lima',
  });
  for (const status of ['open', 'closed'] as const) {
    const res = await inject(
      'PUT',
      `/api/tickets/${ticketId}`,
      s.admin,
      status === 'open' ? { status, userId: s.admin.id } : { status },
    );
    expect(res.statusCode, res.body).toBe(200);
  }
  await injectMessage(t.app, s.admin, s.whatsappId, { from, body: answer });
  await t.app.jobs.drain();
  return ticketId;
}

describe('rating comments', () => {
  it('reads the digit and the comment after it, and nothing else as an answer', () => {
    expect(parseRatingAnswer(' 1 demorou muito ')).toEqual({ rate: 1, comment: 'demorou muito' });
    expect(parseRatingAnswer('1 - ninguém respondeu\nnada')).toEqual({
      rate: 1,
      comment: 'ninguém respondeu\nnada',
    });
    expect(parseRatingAnswer('3')).toEqual({ rate: 3, comment: null });
    expect(parseRatingAnswer('2.')).toEqual({ rate: 2, comment: null });
    for (const no of ['12', '1demorou', '4 ruim', 'obrigado', '', 'um'])
      expect(parseRatingAnswer(no)).toBeNull();
    expect(parseRatingAnswer(`1 ${'x'.repeat(RATING_COMMENT_MAX + 50)}`)?.comment).toHaveLength(
      RATING_COMMENT_MAX,
    );
  });

  it('keeps the comment of a rating and lists the low ones to the company admins only', async () => {
    const s = await openOneQueueTenant(t.app);
    await putSetting(t.app, s.companyId, 'userRating', 'enabled');
    const low = await rated(s, '1 demorou muito');
    const plain = await rated(s, '1');
    const good = await rated(s, '3 ótimo atendimento');
    const stored = await t.app.ctx.db
      .select({ ticketId: userRatings.ticketId, rate: userRatings.rate, comment: userRatings.comment })
      .from(userRatings)
      .where(and(eq(userRatings.companyId, s.companyId)))
      .orderBy(userRatings.id);
    expect(stored).toEqual([
      { ticketId: low, rate: 1, comment: 'demorou muito' },
      { ticketId: plain, rate: 1, comment: null },
      { ticketId: good, rate: 3, comment: 'ótimo atendimento' },
    ]);

    const [from, day] = period();
    const url = `/api/reports/ratings/comments?from=${from}&to=${day}`;
    const res = await get(s.admin, url);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      records: [
        {
          id: expect.any(Number),
          rate: 1,
          comment: 'demorou muito',
          createdAt: expect.any(String),
          ticketId: low,
          ticketUuid: expect.any(String),
          contactName: 'Ana Lima',
          userId: s.admin.id,
          userName: expect.any(String),
        },
      ],
      hasMore: false,
    });
    // Filters narrow it; the next page is empty.
    expect((await get(s.admin, `${url}&userIds=${s.agent.id}`)).json().records).toEqual([]);
    expect((await get(s.admin, `${url}&queueIds=${s.queueId}`)).json().records).toHaveLength(1);
    expect((await get(s.admin, `${url}&pageNumber=2`)).json()).toEqual({ records: [], hasMore: false });
    // The table as CSV: the comment under its header.
    const csv = await get(s.admin, `${url}&format=csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="ratingComments-${from}_${day}.csv"`,
    );
    expect(csv.body).toContain('createdAt,rate,comment,contactName,userName,ticketId');
    expect(csv.body).toContain('demorou muito');

    // Agents may not read reports; another company sees none of it, and a filter naming this
    // company's queue is not found.
    expect((await get(s.agent, url)).statusCode).toBe(403);
    const other = await createTenant(t.app);
    expect((await get(other.admin, url)).json()).toEqual({ records: [], hasMore: false });
    expect((await get(other.admin, `${url}&queueIds=${s.queueId}`)).statusCode).toBe(404);
    // Bad input names the field.
    const bad = await get(s.admin, `/api/reports/ratings/comments?from=${day}&to=${day}&pageNumber=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', field: 'pageNumber' });
  });

  it('pages the comments newest first', async () => {
    const s = await createTenant(t.app);
    const at = Date.now();
    await t.app.ctx.db.insert(userRatings).values(
      Array.from({ length: RATING_COMMENTS_PAGE_SIZE + 1 }, (_, i) => ({
        companyId: s.companyId,
        rate: 1,
        comment: `c${i}`,
        createdAt: new Date(at - i * 1000),
      })),
    );
    const [from, day] = period();
    const first = (await get(s.admin, `/api/reports/ratings/comments?from=${from}&to=${day}`)).json();
    expect(first.hasMore).toBe(true);
    expect(first.records.map((r: { comment: string }) => r.comment).slice(0, 2)).toEqual(['c0', 'c1']);
    const second = (
      await get(s.admin, `/api/reports/ratings/comments?from=${from}&to=${day}&pageNumber=2`)
    ).json();
    expect(second).toMatchObject({ hasMore: false, records: [{ comment: `c${RATING_COMMENTS_PAGE_SIZE}` }] });
  });
});
