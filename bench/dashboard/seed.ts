/**
 * Seed data of the dashboard benchmark: one company's agents, contacts, tickets over the period and
 * ratings, bulk-inserted with set-based SQL (generate_series) on the bench's Postgres database.
 */
import { DASHBOARD_TIME_ZONE } from '@zapdesk/shared';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { createCompany, createUser, type TestUser } from '../../apps/server/src/test/factories.js';
import { f0 } from '../support/load.js';
import {
  FIRST_NAMES as ALL_FIRST_NAMES,
  LAST_NAMES as ALL_LAST_NAMES,
  AREA_CODES,
} from '../support/names.js';

/** The local days the tickets are spread over. */
export const PERIOD_DAYS = 180;
export const AGENTS = 19;
export const ONLINE_AGENTS = 7;
/** The names this bench draws from (the shorter lists it was calibrated with). */
const FIRST_NAMES = ALL_FIRST_NAMES.slice(0, ALL_FIRST_NAMES.indexOf('Thiago') + 1);
const LAST_NAMES = ALL_LAST_NAMES.slice(0, ALL_LAST_NAMES.indexOf('Nunes') + 1);

/** How much to seed: tickets, the random seed, where numbers start, agents and how many online. */
type Size = { tickets: number; seed: number; numberOffset: number; agents: number; online: number };

export interface SeededCompany {
  companyId: number;
  admin: TestUser;
  tickets: number;
  contacts: number;
}

/**
 * Seeds one company: an admin and `AGENTS` agents (`ONLINE_AGENTS` of them online), a simulator
 * connection row, contacts (70% of the tickets: repeat customers) created over the period, tickets over
 * the period and ratings on about 4% of the closed tickets. Everything bulk is one INSERT ... SELECT
 * over generate_series.
 *
 * Tickets: created uniformly over the last `PERIOD_DAYS` local days, within business hours (7h..21h
 * local, more in the middle of the day); wait until accepted ~ exponential, mean 12 min; support time
 * 2 min + exponential, mean 40 min. Tickets created in the last 2 days are live with some chance
 * (open 35%, pending 20%), a few old ones stay open (0.3%); the rest is closed, 6% of them without an
 * agent (closed by the bot or from pending). Agents are drawn with a skew (some take more tickets).
 */
export async function seedCompany(app: FastifyInstance, sql: pg.Client, size: Size): Promise<SeededCompany> {
  const companyId = await createCompany(app);
  const admin = await createUser(app, companyId, { profile: 'admin', name: 'Bench Admin' });
  await sql.query('select setseed($1)', [size.seed]);
  const { rows: agents } = await sql.query<{ id: number }>(
    `insert into users (company_id, name, email, password_hash, profile, online)
     select $1::int, ($2::text[])[1 + (g * 5) % array_length($2::text[], 1)] || ' ' ||
              ($3::text[])[1 + (g * 7) % array_length($3::text[], 1)],
            'bench-agent-' || $1::int || '-' || g || '@example.test', 'not-a-hash', 'user', g <= $5::int
     from generate_series(1, $4::int) g returning id`,
    [companyId, FIRST_NAMES, LAST_NAMES, size.agents, size.online],
  );
  const agentIds = agents.map((a) => a.id);
  const { rows: wa } = await sql.query<{ id: number }>(
    `insert into whatsapps (company_id, name, status, provider, is_default)
     values ($1, 'Bench simulator', 'DISCONNECTED', 'simulator', true) returning id`,
    [companyId],
  );
  const whatsappId = wa[0]!.id;
  const contacts = Math.max(1, Math.round(size.tickets * 0.7));

  // Contacts created over the period (a few groups, not counted as leads).
  await sql.query(
    `insert into contacts (company_id, name, number, email, is_group, created_at, updated_at)
     select $1::int,
            ($3::text[])[1 + floor(random() * array_length($3::text[], 1))::int] || ' ' ||
              ($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int],
            '55' || ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int] || '9' ||
              lpad(((g::bigint * 7919 + $6) % 100000000)::text, 8, '0'),
            '', g % 500 = 0, c.at, c.at
     from generate_series(1, $2::int) g
     cross join lateral (select now() - make_interval(days => $7::int) * random() + make_interval(secs => g * 0) as at) c`,
    [companyId, contacts, FIRST_NAMES, LAST_NAMES, AREA_CODES, size.numberOffset, PERIOD_DAYS],
  );
  await sql.query('drop table if exists bench_contacts');
  await sql.query(
    `create temp table bench_contacts as
     select row_number() over (order by id)::int as rn, id from contacts where company_id = $1`,
    [companyId],
  );
  await sql.query('create unique index on bench_contacts (rn)');
  await sql.query('analyze bench_contacts');

  // Tickets (the triggers of migration 0010 fill the dashboard's per-day rollup as they go in): ticket g
  // belongs to contact 1 + (g - 1) % contacts, so a live ticket (only g <= contacts
  // may be live) has a contact of its own (the partial unique index on live tickets).
  await sql.query(
    `insert into tickets (company_id, contact_id, whatsapp_id, user_id, status, accepted_at, closed_at,
                          created_at, updated_at)
     select $1::int, c.id, $2::int,
            case when s.status = 'pending' or (s.status = 'closed' and s.r_noagent < 0.06) then null
                 else ($3::int[])[1 + floor(power(s.r_agent, 1.3) * array_length($3::int[], 1))::int] end,
            s.status, s.accepted, s.closed, s.created, coalesce(s.closed, s.accepted, s.created)
     from (select t.*,
                  case when t.status = 'pending' or (t.status = 'closed' and t.r_noagent < 0.06) then null
                       else least(t.created + make_interval(secs => 20 - ln(1 - t.r_wait) * 720), now()) end
                    as accepted
           from (select b.*,
                        case when b.g <= $5::int and b.created > now() - interval '2 days' and b.r_status < 0.2
                               then 'pending'
                             when b.g <= $5::int and b.created > now() - interval '2 days' and b.r_status < 0.55
                               then 'open'
                             when b.g <= $5::int and b.r_status < 0.003 then 'open'
                             else 'closed' end as status
                 from (select g, random() as r_status, random() as r_agent, random() as r_noagent,
                              random() as r_wait, random() as r_support,
                              least(((current_date - floor(random() * $6::int)::int)::timestamp
                                       + make_interval(secs => 25200 + 50400 * (0.5 + (random() + random() - 1) / 2)))
                                      at time zone $7::text,
                                    now() - make_interval(secs => random() * 3600)) as created
                       from generate_series(1, $4::int) g offset 0) b) t) s0
     cross join lateral (select s0.*, case when s0.status = 'closed'
                                  then least(coalesce(s0.accepted, s0.created)
                                             + make_interval(secs => 120 - ln(1 - s0.r_support) * 2400), now())
                                  end as closed) s
     join bench_contacts c on c.rn = 1 + (s.g - 1) % $5::int`,
    [companyId, whatsappId, agentIds, size.tickets, contacts, PERIOD_DAYS, DASHBOARD_TIME_ZONE],
  );

  // Ratings on about 4% of the closed tickets with an agent, a few minutes after closing; skewed
  // towards 3 (very satisfied).
  await sql.query(
    `insert into user_ratings (company_id, ticket_id, user_id, rate, created_at)
     select $1::int, t.id, t.user_id,
            case when r < 0.15 then 1 when r < 0.4 then 2 else 3 end,
            least(t.closed_at + make_interval(secs => 30 + random() * 600), now())
     from (select id, user_id, closed_at, random() as r from tickets
           where company_id = $1 and status = 'closed' and user_id is not null) t
     where random() < 0.04`,
    [companyId],
  );
  await sql.query('drop table bench_contacts');
  return { companyId, admin, tickets: size.tickets, contacts };
}

/** One line describing the seeded data as the database holds it (counts, sizes), for the report. */
export async function dataVolumes(ref: pg.Pool, main: SeededCompany, second: SeededCompany): Promise<string> {
  const { rows } = await ref.query<Record<string, string>>(
    `select (select count(*) from tickets where company_id = $1 and status = 'pending') as pending,
            (select count(*) from tickets where company_id = $1 and status = 'open') as open,
            (select count(*) from tickets where company_id = $1 and status = 'closed') as closed,
            (select count(*) from tickets where company_id = $1 and status = 'closed' and user_id is null)
              as closed_no_agent,
            (select count(*) from tickets where company_id = $1 and created_at >= now() - interval '30 days')
              as last30,
            (select count(*) from user_ratings where company_id = $1) as ratings,
            (select count(*) from users where company_id = $1) as users,
            (select count(*) from users where company_id = $1 and online) as online,
            (select count(*) from tickets where company_id = $2) as second_tickets,
            (select count(*) from contacts where company_id = $2) as second_contacts,
            (select count(*) from user_ratings where company_id = $2) as second_ratings,
            pg_size_pretty(pg_total_relation_size('tickets')) as tickets_size`,
    [main.companyId, second.companyId],
  );
  const v = rows[0]!;
  const n = (key: string) => f0(Number(v[key]));
  return (
    `company under test: ${f0(main.tickets)} tickets created over the last ${PERIOD_DAYS} days ` +
    `(${n('last30')} in the last 30; ${n('pending')} pending, ${n('open')} open, ${n('closed')} closed, ` +
    `${n('closed_no_agent')} of them without an agent), ${f0(main.contacts)} contacts created over the ` +
    `period, ${n('users')} users (${n('online')} online), ${n('ratings')} ratings; second company: ` +
    `${n('second_tickets')} tickets, ${n('second_contacts')} contacts, ${n('second_ratings')} ratings; ` +
    `tickets table ${v.tickets_size} with its indexes`
  );
}
