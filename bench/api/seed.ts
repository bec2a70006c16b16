/**
 * Seed data of the tickets API benchmark: one company's queues, staff, contacts, tickets, messages
 * and tags, bulk-inserted with set-based SQL (generate_series) on the bench's Postgres database.
 */
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import {
  createCompany,
  createQueue,
  createUser,
  type TestUser,
} from '../../apps/server/src/test/factories.js';
import { f0 } from '../support/load.js';
import { AREA_CODES, FIRST_NAMES, LAST_NAMES } from '../support/names.js';

// Word lists: message bodies are drawn with a Zipf-like skew, so a frequent word hits a realistic
// share of messages.

/** Most frequent first: rank decides how often a word is drawn. */
const WORDS = (
  'obrigado bom dia por favor pedido você ainda não chegou boa tarde olá preciso ajuda entrega ' +
  'produto quando prazo hoje amanhã certo aguardo retorno código rastreio nota fiscal pagamento boleto ' +
  'pix cartão valor desconto frete endereço número troca devolução defeito tamanho cor modelo estoque ' +
  'disponível loja site aplicativo cadastro senha acesso conta email telefone atendimento atendente ' +
  'protocolo reclamação problema resolvido solicitação cancelamento compra comprei recebi enviado ' +
  'transportadora correios semana mês horário funcionamento segunda sexta sábado domingo manhã noite ' +
  'tudo bem certeza perfeito entendi combinado aguardando confirmação comprovante anexo foto imagem ' +
  'vídeo documento garantia assistência técnica instalação manual tensão voltagem bateria carregador ' +
  'tela quebrado funcionando ligado desligado reembolso estorno parcela juros vencimento segunda via ' +
  'orçamento proposta contrato plano mensal anual promoção cupom fidelidade pontos cliente novo antigo ' +
  'urgente rápido demora atraso esperando ninguém respondeu gerente supervisor setor financeiro ' +
  'comercial suporte vendas pós-venda avaliação nota satisfação sugestão elogio'
).split(' ');
/** Rare words, each in about one message of `every` (selective searches). */
const RARE_WORDS = [
  { word: 'procon', every: 4001 },
  { word: 'chargeback', every: 3989 },
];
/** The searches of the scenarios: a frequent word, a rare word and a part of a name. */
export const COMMON_WORD = 'pedido';
export const RARE_WORD = 'procon';
export const NAME_PART = 'fernand';

const QUEUE_NAMES = ['Vendas', 'Suporte', 'Financeiro', 'Trocas', 'Pós-venda'];
export const TAG_NAMES = [
  'VIP',
  'Reclamação',
  'Financeiro',
  'Troca',
  'Urgente',
  'Atacado',
  'Novo cliente',
  'Retorno',
];

/** How much to seed: volumes, the random seed, whether there is an agent, where numbers start. */
interface Size {
  tickets: number;
  messages: number;
  seed: number;
  withAgent: boolean;
  numberOffset: number;
}

export interface SeededCompany {
  companyId: number;
  whatsappId: number;
  queueIds: number[];
  tagIds: number[];
  admin: TestUser;
  agent?: TestUser;
  contacts: number;
  tickets: number;
  messages: number;
}

/**
 * Seeds one company: queues, an admin (and an agent in the first two queues), a few more staff, a
 * simulator connection row (DISCONNECTED: no session starts), `size.tickets` contacts with one ticket
 * each, `size.messages` messages spread over them, tags on about a third of the tickets. Everything
 * bulk is one INSERT ... SELECT over generate_series.
 */
export async function seedCompany(app: FastifyInstance, sql: pg.Client, size: Size): Promise<SeededCompany> {
  const companyId = await createCompany(app);
  const queueIds: number[] = [];
  for (const name of QUEUE_NAMES) queueIds.push(await createQueue(app, companyId, name));
  const admin = await createUser(app, companyId, { profile: 'admin', name: 'Bench Admin' });
  const agent = size.withAgent
    ? await createUser(app, companyId, {
        profile: 'user',
        name: 'Bench Agent',
        queueIds: queueIds.slice(0, 2),
      })
    : undefined;

  await sql.query('select setseed($1)', [size.seed]);
  const { rows: staff } = await sql.query<{ id: number }>(
    `insert into users (company_id, name, email, password_hash, profile)
     select $1::int, ($2::text[])[1 + g % array_length($2::text[], 1)] || ' ' || ($3::text[])[1 + (g * 7) % array_length($3::text[], 1)],
            'bench-staff-' || $1::int || '-' || g || '@example.test', 'not-a-hash', 'user'
     from generate_series(1, 6) g returning id`,
    [companyId, FIRST_NAMES, LAST_NAMES],
  );
  await sql.query(
    `insert into user_queues (company_id, user_id, queue_id)
     select $1::int, u.id, ($3::int[])[1 + (u.n + k) % array_length($3::int[], 1)]
     from unnest($2::int[]) with ordinality as u(id, n), generate_series(0, 1) k`,
    [companyId, staff.map((s) => s.id), queueIds],
  );
  const userIds = [admin.id, ...(agent ? [agent.id] : []), ...staff.map((s) => s.id)];

  const { rows: wa } = await sql.query<{ id: number }>(
    `insert into whatsapps (company_id, name, status, provider, is_default)
     values ($1, 'Bench simulator', 'DISCONNECTED', 'simulator', true) returning id`,
    [companyId],
  );
  const whatsappId = wa[0]!.id;

  // Contacts: realistic names and Brazilian mobile numbers (55 + area code + 9 + 8 digits, the
  // 8 digits a permutation of g, so unique).
  await sql.query(
    `insert into contacts (company_id, name, number, email, created_at, updated_at)
     select $1::int,
            ($3::text[])[1 + floor(random() * array_length($3::text[], 1))::int] || ' ' ||
              ($4::text[])[1 + floor(random() * array_length($4::text[], 1))::int],
            '55' || ($5::text[])[1 + floor(random() * array_length($5::text[], 1))::int] || '9' ||
              lpad(((g::bigint * 7919 + $6) % 100000000)::text, 8, '0'),
            '', now() - interval '180 days' * random(), now() - interval '90 days' * random()
     from generate_series(1, $2::int) g`,
    [companyId, size.tickets, FIRST_NAMES, LAST_NAMES, AREA_CODES, size.numberOffset],
  );

  // Tickets, one per contact: ~10% pending, ~10% open (both updated in the last 14 days), ~80%
  // closed (updated over 90 days); 8% without a queue, the rest skewed to the first queues; open
  // tickets and 85% of closed ones have a user; unread messages on live tickets.
  await sql.query(
    `insert into tickets (company_id, contact_id, whatsapp_id, user_id, queue_id, status, unread_messages,
                          accepted_at, closed_at, created_at, updated_at)
     select $1::int, s.id, $2,
            case when s.status = 'pending' then null
                 when s.status = 'open' or s.r_user < 0.85
                   then ($3::int[])[1 + floor(s.r_pick * array_length($3::int[], 1))::int] end,
            case when s.r_queue < 0.08 then null
                 else ($4::int[])[1 + floor(power(s.r_which, 1.4) * array_length($4::int[], 1))::int] end,
            s.status,
            case when s.status = 'closed' then 0 else floor(power(s.r_unread, 2) * 9)::int end,
            case when s.status <> 'pending' then s.updated - interval '3 hours' * s.r_unread end,
            case when s.status = 'closed' then s.updated end,
            s.updated - interval '5 days' * s.r_age, s.updated
     from (select r.*, case when r.r_status < 0.1 then 'pending' when r.r_status < 0.2 then 'open'
                             else 'closed' end as status,
                  case when r.r_status >= 0.2 then now() - interval '90 days' * r.r_updated
                       else now() - interval '14 days' * power(r.r_updated, 2) end as updated
           from (select c.id, random() as r_status, random() as r_updated, random() as r_user,
                        random() as r_pick, random() as r_queue, random() as r_which, random() as r_unread,
                        random() as r_age
                 from contacts c where c.company_id = $1 order by c.id offset 0) r
           offset 0) s`,
    [companyId, whatsappId, userIds, queueIds],
  );

  await sql.query('drop table if exists bench_tickets');
  await sql.query(
    `create temp table bench_tickets as
     select row_number() over (order by id)::int as rn, id, contact_id, user_id, created_at, updated_at
     from tickets where company_id = $1`,
    [companyId],
  );
  await sql.query('create index on bench_tickets (rn)');
  await sql.query('analyze bench_tickets');

  // Messages: spread at random over the tickets, between the ticket's creation and last update;
  // 3 to 12 words each, drawn with a Zipf-like skew; a rare word in about one message of 4,000.
  if (size.messages > 0) {
    await sql.query(
      `insert into messages (company_id, ticket_id, contact_id, whatsapp_id, user_id, body, from_me, read, ack,
                             created_at, updated_at)
       select $1::int, t.id, t.contact_id, $2, case when s.from_me then t.user_id end, b.body, s.from_me, true,
              case when s.from_me then 3 else 0 end,
              t.created_at + (t.updated_at - t.created_at) * s.r_time,
              t.created_at + (t.updated_at - t.created_at) * s.r_time
       from (select g, 1 + floor(random() * $4::int)::int as rn, random() < 0.45 as from_me,
                    random() as r_time
             from generate_series(1, $3::int) g offset 0) s
       join bench_tickets t on t.rn = s.rn
       cross join lateral (
         select string_agg(($5::text[])[1 + floor(power(random(), 2) * array_length($5::text[], 1))::int], ' ')
                || case ${RARE_WORDS.map((r, i) => `when s.g % ${r.every} = ${7 + i} then ' ${r.word}'`).join(' ')}
                   else '' end as body
         from generate_series(1, 3 + s.g % 10) k) b`,
      [companyId, whatsappId, size.messages, size.tickets, WORDS],
    );
    await sql.query(
      `update tickets t set last_message = m.body
       from (select distinct on (ticket_id) ticket_id, body from messages where company_id = $1
             order by ticket_id, created_at desc) m
       where t.id = m.ticket_id`,
      [companyId],
    );
  }

  const { rows: tags } = await sql.query<{ id: number }>(
    `insert into tags (company_id, name, color)
     select $1::int, name, '#' || substr(md5(name), 1, 6) from unnest($2::text[]) with ordinality as t(name, n)
     order by n returning id`,
    [companyId, TAG_NAMES],
  );
  const tagIds = tags.map((t) => t.id);
  // About 30% of the tickets carry a tag (skewed to the first tags), 8% a second one.
  await sql.query(
    `insert into ticket_tags (company_id, ticket_id, tag_id)
     select $1::int, t.id, ($2::int[])[1 + floor(power(random(), 1.5) * array_length($2::int[], 1))::int]
     from bench_tickets t where random() < 0.3
     union all
     select $1::int, t.id, ($2::int[])[1 + floor(random() * array_length($2::int[], 1))::int]
     from bench_tickets t where random() < 0.08
     on conflict do nothing`,
    [companyId, tagIds],
  );
  await sql.query('drop table bench_tickets');
  return {
    companyId,
    whatsappId,
    queueIds,
    tagIds,
    admin,
    agent,
    contacts: size.tickets,
    tickets: size.tickets,
    messages: size.messages,
  };
}

/** One line describing the seeded data as the database holds it (counts, sizes), for the report. */
export async function dataVolumes(ref: pg.Pool, main: SeededCompany, second: SeededCompany): Promise<string> {
  const { rows } = await ref.query<Record<string, string>>(
    `select (select count(*) from tickets where company_id = $1 and status = 'pending') as pending,
            (select count(*) from tickets where company_id = $1 and status = 'open') as open,
            (select count(*) from tickets where company_id = $1 and status = 'closed') as closed,
            (select count(*) from tickets where company_id = $1 and queue_id is null) as no_queue,
            (select count(*) from ticket_tags where company_id = $1) as ticket_tags,
            (select count(distinct ticket_id) from ticket_tags where company_id = $1) as tagged,
            (select count(*) from messages where company_id = $1 and body ilike $3) as common_messages,
            (select count(*) from messages where company_id = $1 and body ilike $4) as rare_messages,
            (select count(*) from tickets where company_id = $2) as second_tickets,
            (select count(*) from messages where company_id = $2) as second_messages,
            pg_size_pretty(pg_total_relation_size('messages')) as messages_size,
            pg_size_pretty(pg_relation_size('messages_body_trgm_idx')) as trgm_size`,
    [main.companyId, second.companyId, `%${COMMON_WORD}%`, `%${RARE_WORD}%`],
  );
  const v = rows[0]!;
  const n = (key: string) => f0(Number(v[key]));
  return (
    `company under test: ${f0(main.tickets)} contacts, ${f0(main.tickets)} tickets (${n('pending')} pending, ` +
    `${n('open')} open, ${n('closed')} closed; ${n('no_queue')} without a queue; ${n('tagged')} tagged, ` +
    `${n('ticket_tags')} tags on tickets), ${f0(main.messages)} messages ('${COMMON_WORD}' in ` +
    `${n('common_messages')}, '${RARE_WORD}' in ${n('rare_messages')}), 5 queues, 8 staff users, 8 tags; ` +
    `second company: ${n('second_tickets')} tickets, ${n('second_messages')} messages; ` +
    `messages table ${v.messages_size} with its indexes (trigram index ${v.trgm_size})`
  );
}
