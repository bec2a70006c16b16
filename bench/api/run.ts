/**
 * Tickets API latency benchmark: one company with N tickets and M messages
 * (plus a smaller second company), seeded with set-based SQL on a fresh Postgres database, then
 * `GET /api/tickets` measured over HTTP on loopback, scenario by scenario: sequential requests, then
 * again with a few requests in flight. Prints p50/p95/p99/max and requests/s per scenario, the
 * EXPLAIN (ANALYZE, BUFFERS) plans of the slowest scenarios, and rewrites the
 * 'Tickets API (bench/api)' section of docs/benchmarks.md.
 *
 *   npx tsx --conditions=source bench/api/run.ts [--tickets 10000] [--messages 200000]
 *     [--requests 300] [--concurrency 10] [--timeout 900] [--no-write] [--workers N]
 *
 * --workers N (N > 1) runs the server as N processes (WORKERS, apps/server/src/cluster.ts) with Redis at
 * BENCH_REDIS_URL (default redis://127.0.0.1:6379); CPU per request then sums all of them.
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) names the server; a uniquely
 * named database is created on it and dropped at the end, also on failure, interruption or timeout.
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { type Config, loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { loadSecrets } from '../../apps/server/src/lib/secrets.js';
import { TICKETS_PAGE_SIZE } from '../../apps/server/src/modules/tickets/tickets-service.js';
import {
  createCompany,
  createQueue,
  createUser,
  type TestUser,
  tokenFor,
} from '../../apps/server/src/test/factories.js';
import { backendJiffies, childProcesses, processCpuMs } from '../support/cpu.js';
import { f0, f1, f2, type Load, loadText, startLoad, thisProcessCpuMs } from '../support/load.js';
import { installQueryRecorder, recorder } from '../support/query-recorder.js';
import { writeSection } from '../support/report.js';
import { type Stats, stats } from '../support/stats.js';
import { createTeardown } from '../support/teardown.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const HEADING = '## Tickets API (bench/api)';
/** The target: pages and searches answer in under 50 ms at p99. */
const TARGET_P99_MS = 50;
const WARMUP_PER_SCENARIO = 15;
/** EXPLAIN'd scenarios: the slowest (sequential p99), all over the target within these bounds. */
const EXPLAIN_AT_LEAST = 2;
const EXPLAIN_AT_MOST = 4;

// ---------------------------------------------------------------------------------------------
// Options

interface Options {
  tickets: number;
  messages: number;
  requests: number;
  concurrency: number;
  timeoutSeconds: number;
  write: boolean;
  serverUrl: string;
  /** Only the scenarios whose name contains one of these (comma-separated); all when empty. */
  only: string[];
  /** The `accept-encoding` header of every request ('' sends `identity`: no compression). */
  encoding: string;
  /**
   * Server processes: 1 runs the app in this process; more start `apps/server/src/main.ts` with
   * WORKERS set (cluster.ts) on the same database and Redis (BENCH_REDIS_URL).
   */
  workers: number;
  redisUrl: string;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      tickets: { type: 'string', default: '10000' },
      messages: { type: 'string', default: '200000' },
      requests: { type: 'string', default: '300' },
      concurrency: { type: 'string', default: '10' },
      timeout: { type: 'string', default: '900' },
      'no-write': { type: 'boolean', default: false },
      only: { type: 'string', default: '' },
      encoding: { type: 'string', default: 'gzip, deflate, br' },
      workers: { type: 'string', default: '1' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(
      'npx tsx --conditions=source bench/api/run.ts [--tickets N] [--messages M] [--requests R]\n' +
        '  [--concurrency C] [--timeout seconds] [--no-write]\n' +
        "  [--only 'name part,…'] [--encoding 'gzip, deflate, br' | identity] [--workers N]",
    );
    process.exit(0);
  }
  const int = (name: string, text: string, min: number, max: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < min || n > max) {
      throw new Error(`--${name} takes an integer from ${min} to ${max}, got '${text}'`);
    }
    return n;
  };
  return {
    tickets: int('tickets', values.tickets, 100, 500_000),
    messages: int('messages', values.messages, 0, 5_000_000),
    requests: int('requests', values.requests, 20, 20_000),
    concurrency: int('concurrency', values.concurrency, 2, 64),
    timeoutSeconds: int('timeout', values.timeout, 30, 7200),
    write: !values['no-write'] && !values.only,
    only: values.only ? values.only.split(',').map((part) => part.trim()) : [],
    encoding: values.encoding,
    workers: int('workers', values.workers, 1, 16),
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    serverUrl: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
  };
}

// ---------------------------------------------------------------------------------------------
// Teardown: every resource registers its release; they run in reverse order, once, even on failure.

const { onTeardown, teardown, abort } = createTeardown('tickets API benchmark');

// ---------------------------------------------------------------------------------------------
// SQL recorder: the app's queries (through its pg.Pool) with their text, values and duration.

installQueryRecorder();

/** Which part of GET /api/tickets a recorded query is. */
function queryKind(text: string): 'page' | 'count' | 'other' {
  if (!/from "tickets"/i.test(text)) return 'other';
  if (/json_agg/i.test(text)) return 'page';
  if (/count\(\*\)/i.test(text)) return 'count';
  return 'other';
}

// ---------------------------------------------------------------------------------------------
// Seed data: word lists (message bodies are drawn with a Zipf-like skew, so a frequent word hits a
// realistic share of messages), names and numbers.

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
const COMMON_WORD = 'pedido';
const RARE_WORD = 'procon';
const NAME_PART = 'fernand';

const FIRST_NAMES = (
  'Ana Maria Mariana Juliana Fernanda Fernando Patrícia Aline Camila Amanda Bruna Letícia Gabriela ' +
  'Larissa Beatriz Carla Vanessa Luciana Renata Daniela José João Antônio Francisco Carlos Paulo Pedro ' +
  'Lucas Luiz Marcos Luis Gabriel Rafael Daniel Marcelo Bruno Eduardo Felipe Rodrigo Gustavo Thiago ' +
  'Ricardo Leonardo Diego Vinícius Matheus André Fábio Sérgio Roberto'
).split(' ');
const LAST_NAMES = (
  'Silva Santos Oliveira Souza Rodrigues Ferreira Alves Pereira Lima Gomes Costa Ribeiro Martins ' +
  'Carvalho Almeida Lopes Soares Fernandes Vieira Barbosa Rocha Dias Nascimento Andrade Moreira Nunes ' +
  'Marques Machado Mendes Freitas Cardoso Ramos Gonçalves Santana Teixeira Araújo Pinto Moura Correia'
).split(' ');
const AREA_CODES = ['11', '21', '31', '41', '51', '61', '71', '81', '85', '19', '27', '48', '62', '92'];
const QUEUE_NAMES = ['Vendas', 'Suporte', 'Financeiro', 'Trocas', 'Pós-venda'];
const TAG_NAMES = [
  'VIP',
  'Reclamação',
  'Financeiro',
  'Troca',
  'Urgente',
  'Atacado',
  'Novo cliente',
  'Retorno',
];

interface SeededCompany {
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
async function seedCompany(
  app: FastifyInstance,
  sql: pg.Client,
  size: { tickets: number; messages: number; seed: number; withAgent: boolean; numberOffset: number },
): Promise<SeededCompany> {
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

// ---------------------------------------------------------------------------------------------
// Scenarios and measurement

interface Scenario {
  name: string;
  as: 'admin' | 'agent';
  query: Record<string, string>;
  /** Another hot read than GET /api/tickets (e.g. '/api/contacts'); its answer's count is reported. */
  path?: string;
}

function scenariosFor(company: SeededCompany, numberPart: string, busyTicketId: number): Scenario[] {
  const q = (query: Record<string, string | number | boolean | number[]>) =>
    Object.fromEntries(
      Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? JSON.stringify(v) : String(v)]),
    );
  const third = company.queueIds[2]!;
  const tag = company.tagIds[2]!;
  return [
    { name: 'admin showAll, page 1', as: 'admin', query: q({ showAll: true, pageNumber: 1 }) },
    { name: 'admin showAll, page 10', as: 'admin', query: q({ showAll: true, pageNumber: 10 }) },
    { name: 'admin status=open', as: 'admin', query: q({ showAll: true, status: 'open' }) },
    {
      name: 'admin status=open, all queueIds',
      as: 'admin',
      query: q({ showAll: true, status: 'open', queueIds: company.queueIds }),
    },
    { name: 'admin status=pending', as: 'admin', query: q({ showAll: true, status: 'pending' }) },
    { name: 'admin queue filter (1 queue)', as: 'admin', query: q({ showAll: true, queueIds: [third] }) },
    { name: 'agent page 1 (visibility)', as: 'agent', query: q({ pageNumber: 1 }) },
    {
      name: `search common word '${COMMON_WORD}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: COMMON_WORD }),
    },
    {
      name: `search rare word '${RARE_WORD}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: RARE_WORD }),
    },
    {
      name: `search number part '${numberPart}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: numberPart }),
    },
    {
      name: `search name part '${NAME_PART}'`,
      as: 'admin',
      query: q({ showAll: true, searchParam: NAME_PART }),
    },
    { name: `tag filter ('${TAG_NAMES[2]}')`, as: 'admin', query: q({ showAll: true, tags: [tag] }) },
    {
      name: `agent search '${COMMON_WORD}' (visibility)`,
      as: 'agent',
      query: q({ searchParam: COMMON_WORD }),
    },
    {
      name: 'messages page 2 of a busy ticket',
      as: 'admin',
      path: `/api/messages/${busyTicketId}`,
      query: q({ pageNumber: 2 }),
    },
    { name: 'contacts list, page 1', as: 'admin', path: '/api/contacts', query: q({ pageNumber: 1 }) },
  ];
}

interface RunResult {
  latency: Stats;
  perSecond: number;
  cpu: CpuPerRequest;
}

interface ScenarioResult {
  scenario: Scenario;
  /** `count` and page length of the answer. */
  count: number;
  pageLength: number;
  bytes: number;
  sequential: RunResult;
  concurrent: RunResult;
  /**
   * CPU ms per request of the server process plus the database's Postgres backends (the load
   * generator runs in another process), in the sequential and in the concurrent run.
   */
  cpuMs: { sequential: CpuPerRequest; concurrent: CpuPerRequest };
  /** Mean ms per request spent in the app's SQL (sequential run): page, count, the rest. */
  sqlMs: { page: number; count: number; other: number };
  queriesPerRequest: number;
}

class Client {
  constructor(
    private readonly base: string,
    private readonly tokens: Record<Scenario['as'], string>,
    private readonly ref: pg.Pool,
    private readonly load: LoadGenerator,
    private readonly encoding: string,
    /** CPU ms used so far by the server's process(es). */
    private readonly serverCpuMs: () => number,
  ) {}

  url(scenario: Scenario): string {
    return `${this.base}${scenario.path ?? '/api/tickets'}?${new URLSearchParams(scenario.query)}`;
  }

  /** One request; resolves with its wall time (until the whole body is read) and the body. */
  async get(scenario: Scenario): Promise<{ ms: number; body: string }> {
    const started = performance.now();
    const res = await fetch(this.url(scenario), {
      headers: { authorization: `Bearer ${this.tokens[scenario.as]}`, 'accept-encoding': this.encoding },
    });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`${scenario.name}: HTTP ${res.status} ${body.slice(0, 300)}`);
    return { ms, body };
  }

  /**
   * `requests` requests with `inFlight` of them at a time, sent by the load generator's child process;
   * the CPU time of this (server) process and of the database's backends is measured meanwhile.
   */
  async run(scenario: Scenario, requests: number, inFlight: number): Promise<RunResult> {
    const jiffies0 = await backendJiffies(this.ref);
    const cpu0 = this.serverCpuMs();
    const answer = await this.load.send({
      url: this.url(scenario),
      token: this.tokens[scenario.as],
      encoding: this.encoding,
      requests,
      inFlight,
    });
    const nodeMs = this.serverCpuMs() - cpu0;
    const jiffies1 = await backendJiffies(this.ref);
    let pgJiffies = 0;
    for (const [pid, used] of jiffies1) pgJiffies += used - (jiffies0.get(pid) ?? 0);
    const postgresMs = (pgJiffies * 1000) / CLK_TCK;
    return {
      latency: stats(answer.samples),
      perSecond: requests / answer.seconds,
      cpu: { node: nodeMs / requests, postgres: postgresMs / requests },
    };
  }
}

/** CPU ms per request: the server process and the database's Postgres backends. */
interface CpuPerRequest {
  node: number;
  postgres: number;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 almost everywhere). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * Starts `apps/server/src/main.ts` with WORKERS = options.workers on the bench's database, the same
 * secrets as the in-process app (so its tokens are valid) and Redis; resolves once every worker is up.
 */
async function startCluster(config: Config, databaseUrl: string, options: Options) {
  const port = await new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const free = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(free));
    });
  });
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=source', 'src/main.ts'], {
    cwd: path.join(ROOT, 'apps/server'),
    env: {
      ...process.env,
      NODE_ENV: 'test',
      WORKERS: String(options.workers),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      DATA_DIR: config.dataDir,
      JWT_SECRET: config.JWT_SECRET,
      SESSION_KEY: config.SESSION_KEY,
      LOG_LEVEL: 'silent',
      SEED_DEMO: 'false',
      WEB_DIST: config.WEB_DIST,
      NODE_ID: `bench-api-${process.pid}`,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Zapdesk is running at')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker processes exited (${code}):\n${output}`)));
  });
  // Every worker answers once the port does: wait until all of them are listed.
  let workers: number[] = [];
  for (let i = 0; i < 100 && workers.length < options.workers; i++) {
    workers = childProcesses(child.pid!, 'src/main.ts');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    pid: child.pid!,
    workers,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The load line with the server's process(es) named. */
function serverLoadText(load: Load, options: Options): string {
  const server =
    options.workers > 1 ? `(the server's primary and ${options.workers} workers)` : '(the server alone)';
  return loadText(load).replace('this Node process (server and load generator)', `Node ${server}`);
}

/** The load generator child process (bench/support/http-load-worker.ts), one job at a time. */
class LoadGenerator {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (v: { samples: number[]; seconds: number }) => void; reject: (e: Error) => void }
  >();

  constructor() {
    const worker = path.join(ROOT, 'bench/support/http-load-worker.ts');
    this.child = fork(worker, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.child.on('message', (m: { id: number; samples?: number[]; seconds?: number; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (!w) return;
      if (m.error) w.reject(new Error(m.error));
      else w.resolve({ samples: m.samples ?? [], seconds: m.seconds ?? Number.NaN });
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiting.values()) w.reject(new Error(`load generator exited (${code})`));
      this.waiting.clear();
    });
  }

  send(job: { url: string; token: string; encoding: string; requests: number; inFlight: number }) {
    const id = this.nextId++;
    return new Promise<{ samples: number[]; seconds: number }>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.child.send({ id, ...job });
    });
  }

  close(): void {
    this.child.disconnect();
  }
}

/** Warm-up, round robin and then a few in flight: JIT of the server code, pool connections, caches. */
async function warmUp(client: Client, scenarios: Scenario[], options: Options): Promise<void> {
  for (let i = 0; i < WARMUP_PER_SCENARIO; i++) {
    for (const scenario of scenarios) await client.get(scenario);
  }
  for (const scenario of scenarios) await client.run(scenario, options.concurrency * 2, options.concurrency);
}

async function measureAll(
  client: Client,
  scenarios: Scenario[],
  options: Options,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const probe = await client.get(scenario);
    const answer = JSON.parse(probe.body) as { count: number } & Record<string, unknown>;
    const list = (answer.tickets ?? answer.messages ?? answer.contacts ?? []) as unknown[];

    recorder.queries = [];
    recorder.on = true;
    const sequential = await client.run(scenario, options.requests, 1);
    recorder.on = false;
    await new Promise((resolve) => setImmediate(resolve));
    // The recorder sees the in-process app's queries only: with worker processes they are unknown.
    const recorded = options.workers === 1;
    const sqlMs = recorded
      ? { page: 0, count: 0, other: 0 }
      : { page: Number.NaN, count: Number.NaN, other: Number.NaN };
    for (const query of recorder.queries) sqlMs[queryKind(query.text)] += query.ms / options.requests;
    const queriesPerRequest = recorded ? recorder.queries.length / options.requests : Number.NaN;
    recorder.queries = [];

    const concurrent = await client.run(scenario, options.requests, options.concurrency);
    const result: ScenarioResult = {
      scenario,
      count: answer.count,
      pageLength: list.length,
      bytes: Buffer.byteLength(probe.body),
      sequential,
      concurrent,
      cpuMs: { sequential: sequential.cpu, concurrent: concurrent.cpu },
      sqlMs,
      queriesPerRequest,
    };
    results.push(result);
    const s = sequential.latency;
    const c = concurrent.latency;
    console.log(
      `${scenario.name.padEnd(44)} count ${String(answer.count).padStart(6)} | seq p50 ${f1(s.p50)} p99 ` +
        `${f1(s.p99)} max ${f1(s.max)} ms ${f0(sequential.perSecond)} req/s | C=${options.concurrency} p99 ` +
        `${f1(c.p99)} ms ${f0(concurrent.perSecond)} req/s | CPU ms/req ${f2(concurrent.cpu.node + concurrent.cpu.postgres)} ` +
        `(node ${f2(concurrent.cpu.node)} pg ${f2(concurrent.cpu.postgres)}) | ${f1(queriesPerRequest)} queries | ` +
        `SQL page ${f1(sqlMs.page)} count ${f1(sqlMs.count)} ms`,
    );
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Plans

interface Plan {
  scenario: string;
  kind: 'page' | 'count';
  text: string;
  executionMs: number;
  planningMs: number;
  indexes: string[];
  seqScans: string[];
  jit: boolean;
  buffers: string;
  /** The Bitmap Heap Scan on messages (the body search): rows it kept and its time. */
  messageScan?: { rows: number; ms: number };
}

function messageScanOf(text: string): Plan['messageScan'] {
  const m = /Bitmap Heap Scan on messages .*?actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)/.exec(
    text,
  );
  return m ? { ms: Number(m[1]) * Number(m[3]), rows: Number(m[2]) } : undefined;
}

/** EXPLAIN (ANALYZE, BUFFERS) of the page and count queries the app runs for one request. */
async function explain(client: Client, ref: pg.Pool, scenario: Scenario): Promise<Plan[]> {
  recorder.queries = [];
  recorder.on = true;
  await client.get(scenario);
  recorder.on = false;
  const captured = recorder.queries.filter((q) => queryKind(q.text) !== 'other');
  recorder.queries = [];
  const plans: Plan[] = [];
  for (const query of captured) {
    const { rows } = await ref.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, buffers) ${query.text}`,
      query.values,
    );
    const text = rows.map((r) => r['QUERY PLAN']).join('\n');
    const unique = (re: RegExp) => [...new Set([...text.matchAll(re)].map((m) => m[1]!))];
    plans.push({
      scenario: scenario.name,
      kind: queryKind(query.text) as 'page' | 'count',
      text,
      executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
      planningMs: Number(/Planning Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN),
      indexes: unique(/(?:Index Scan|Index Only Scan|Bitmap Index Scan)(?: Backward)? (?:using|on) (\S+)/g),
      seqScans: unique(/Seq Scan on (\S+)/g),
      jit: /^JIT:/m.test(text),
      buffers: /Buffers: (shared [^\n]*)/.exec(text)?.[1]?.trim() ?? '',
      messageScan: messageScanOf(text),
    });
  }
  return plans;
}

// ---------------------------------------------------------------------------------------------
// Machine, database and data facts

interface Facts {
  date: string;
  nproc: string;
  cpu: string;
  memoryGiB: string;
  node: string;
  postgres: string;
  settings: [string, string][];
  volumes: string;
}

async function facts(ref: pg.Pool, main: SeededCompany, second: SeededCompany): Promise<Facts> {
  let nproc = String(os.availableParallelism());
  try {
    nproc = execFileSync('nproc', { encoding: 'utf8' }).trim();
  } catch {
    /* not on this machine */
  }
  const version = (await ref.query<{ v: string }>('select version() as v')).rows[0]!.v;
  const settings: [string, string][] = [];
  for (const name of ['shared_buffers', 'work_mem', 'effective_cache_size', 'random_page_cost', 'jit']) {
    const { rows } = await ref.query<{ v: string }>('select current_setting($1) as v', [name]);
    settings.push([name, rows[0]!.v]);
  }
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
  const volumes =
    `company under test: ${f0(main.tickets)} contacts, ${f0(main.tickets)} tickets (${n('pending')} pending, ` +
    `${n('open')} open, ${n('closed')} closed; ${n('no_queue')} without a queue; ${n('tagged')} tagged, ` +
    `${n('ticket_tags')} tags on tickets), ${f0(main.messages)} messages ('${COMMON_WORD}' in ` +
    `${n('common_messages')}, '${RARE_WORD}' in ${n('rare_messages')}), 5 queues, 8 staff users, 8 tags; ` +
    `second company: ${n('second_tickets')} tickets, ${n('second_messages')} messages; ` +
    `messages table ${v.messages_size} with its indexes (trigram index ${v.trgm_size})`;
  return {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    nproc,
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: (os.totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    postgres: version,
    settings,
    volumes,
  };
}

// ---------------------------------------------------------------------------------------------
// Report

const mark = (p99: number) => (p99 < TARGET_P99_MS ? f1(p99) : `**${f1(p99)}**`);

function resultTable(results: ScenarioResult[], concurrency: number): string[] {
  const lines = [
    `| scenario | count | seq p50 | p95 | p99 | max | req/s | C=${concurrency} p50 | p95 | p99 | max | req/s | CPU ms / req seq | C=${concurrency}: Node + Postgres | queries / req | SQL ms page / count / other |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of results) {
    const s = r.sequential.latency;
    const c = r.concurrent.latency;
    lines.push(
      `| ${r.scenario.name} | ${f0(r.count)} | ${f1(s.p50)} | ${f1(s.p95)} | ${mark(s.p99)} | ${f1(s.max)} | ` +
        `${f0(r.sequential.perSecond)} | ${f1(c.p50)} | ${f1(c.p95)} | ${mark(c.p99)} | ${f1(c.max)} | ` +
        `${f0(r.concurrent.perSecond)} | ${f2(r.cpuMs.sequential.node + r.cpuMs.sequential.postgres)} | ` +
        `**${f2(r.cpuMs.concurrent.node + r.cpuMs.concurrent.postgres)}** = ${f2(r.cpuMs.concurrent.node)} + ` +
        `${f2(r.cpuMs.concurrent.postgres)} | ${f1(r.queriesPerRequest)} | ` +
        `${f1(r.sqlMs.page)} / ${f1(r.sqlMs.count)} / ${f1(r.sqlMs.other)} |`,
    );
  }
  return lines;
}

function planTable(plans: Plan[]): string[] {
  const lines = [
    '| scenario | query | execution ms | planning ms | body search: messages kept, ms | indexes used | sequential scans | shared buffers | JIT |',
    '| --- | --- | ---: | ---: | ---: | --- | --- | --- | --- |',
  ];
  for (const p of plans) {
    lines.push(
      `| ${p.scenario} | ${p.kind} | ${f1(p.executionMs)} | ${f1(p.planningMs)} | ` +
        `${p.messageScan ? `${f0(p.messageScan.rows)}, ${f1(p.messageScan.ms)}` : '-'} | ` +
        `${p.indexes.map((i) => `\`${i}\``).join(', ') || '-'} | ${p.seqScans.map((s) => `\`${s}\``).join(', ') || '-'} | ` +
        `${p.buffers.replace('shared ', '') || '-'} | ${p.jit ? 'yes' : 'no'} |`,
    );
  }
  return lines;
}

function section(options: Options, env: Facts, load: Load, results: ScenarioResult[], plans: Plan[]): string {
  const misses = results.filter(
    (r) => r.sequential.latency.p99 >= TARGET_P99_MS || r.concurrent.latency.p99 >= TARGET_P99_MS,
  );
  const seqMisses = results.filter((r) => r.sequential.latency.p99 >= TARGET_P99_MS);
  const slowest = [...plans].sort((a, b) => b.executionMs - a.executionMs)[0];
  return [
    HEADING,
    '',
    `\`GET /api/tickets\` (one page of ${TICKETS_PAGE_SIZE} tickets with contact, user, queue, connection and tags, ` +
      'plus the total count) over HTTP on loopback, against a Postgres server. One company holds the data set ' +
      'below, seeded with set-based SQL (generate_series) and then `VACUUM ANALYZE`d; a second, smaller company ' +
      'shares the tables so that every query has to filter by company. Message bodies are drawn from a word ' +
      'list with a Zipf-like skew, so a frequent word hits a realistic share of messages; rare words are in ' +
      'about one message of 4,000. Each scenario runs on its own after a warm-up of ' +
      `${WARMUP_PER_SCENARIO} requests of every scenario: first sequential requests (one in flight, keep-alive ` +
      `\`fetch\`), then the same number with ${options.concurrency} in flight. Latency runs from sending the ` +
      "request to the end of the body. *count* is the answer's total; *SQL ms* is the mean time per request " +
      "of the app's queries in the sequential run, seen from the app's `pg` pool: the page query, the count " +
      'query, and the rest (the auth guard and the viewer); *queries / req* counts them. *CPU ms / req* is the ' +
      "CPU time of the server's Node process plus the database's Postgres backends (`/proc/<pid>/stat` of the " +
      '`pg_stat_activity` pids) during a run, divided by its requests: on a shared machine it is the stable ' +
      'figure, where latency depends on the other load. The load generator runs in a child process ' +
      '(`bench/support/http-load-worker.ts`), so its CPU is not counted; Postgres runs on the same machine. ' +
      "The last two scenarios are other hot reads: a page of a busy ticket's messages and the contacts list.",
    '',
    'Run it (a few minutes; a fresh database is created on the server and dropped at the end; this section is ' +
      'rewritten with the new figures unless `--no-write`):',
    '',
    '```sh',
    'npx tsx --conditions=source bench/api/run.ts [--tickets 10000] [--messages 200000] [--requests 300] \\',
    "  [--concurrency 10] [--timeout 900] [--no-write] [--only 'name part,…'] [--encoding identity] [--workers N]",
    '# --workers N runs the server as N processes (WORKERS, with Redis at BENCH_REDIS_URL, default redis://127.0.0.1:6379)',
    '# --only runs those scenarios alone (nothing written); --encoding sets accept-encoding (default gzip, deflate, br)',
    '# BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server',
    '```',
    '',
    `Last run: ${env.date}; \`nproc\` ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB memory, Node ${env.node}; ` +
      `${env.postgres}.`,
    `Postgres settings as found (not changed): ${env.settings.map(([k, v]) => `\`${k}=${v}\``).join(', ')}.`,
    `Data: ${env.volumes}.`,
    `Parameters: ${f0(options.requests)} requests per scenario and run, concurrency ${options.concurrency} ` +
      `in the second run${options.workers > 1 ? `, the server as ${options.workers} worker processes` : ''}.` +
      ' Times in ms; p99 at or over the target in bold.',
    `Load during the measurements: ${serverLoadText(load, options)}.` +
      (load.other > 0.1
        ? ' The machine was shared with other work, so these figures are worse than on an idle machine.'
        : ''),
    '',
    ...resultTable(results, options.concurrency),
    '',
    `Target (pages and searches under ${TARGET_P99_MS} ms at p99 with 10,000 tickets and 200,000 ` +
      `messages): ${
        misses.length === 0
          ? 'met by every scenario, sequential and concurrent.'
          : `not met. Sequential requests: ${
              seqMisses.length
                ? `${seqMisses.length} over (${seqMisses.map((m) => m.scenario.name).join('; ')})`
                : 'none over'
            }; with ${options.concurrency} in flight: ${misses.length} over${
              misses.length > seqMisses.length
                ? `, ${misses.length - seqMisses.length} of them only then (${misses
                    .filter((m) => !seqMisses.includes(m))
                    .map((m) => m.scenario.name)
                    .join('; ')})`
                : ''
            }.`
      }`,
    '',
    `### Plans (bench/api)`,
    '',
    'EXPLAIN (ANALYZE, BUFFERS) of the page and count queries the app sent for one request of the ' +
      `slowest scenarios by sequential p99 (those over the target, at least ${EXPLAIN_AT_LEAST}, at most ` +
      `${EXPLAIN_AT_MOST}), run once more on the same database; ` +
      'the full plans are printed by the run.',
    '',
    ...planTable(plans),
    ...(slowest
      ? [
          '',
          `<details><summary>Slowest plan: ${slowest.scenario}, ${slowest.kind} query (${f1(slowest.executionMs)} ms)</summary>`,
          '',
          '```text',
          slowest.text,
          '```',
          '',
          '</details>',
        ]
      : []),
    '',
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const options = readOptions();
  const deadline = setTimeout(
    () => void abort(`hard timeout of ${options.timeoutSeconds} s reached`),
    options.timeoutSeconds * 1000,
  );
  deadline.unref();
  process.once('SIGINT', () => void abort('interrupted'));
  process.once('SIGTERM', () => void abort('terminated'));
  process.on('unhandledRejection', (reason) => void abort(reason));

  const server = new URL(options.serverUrl);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(server.hostname) && server.hostname !== '') {
    throw new Error(`BENCH_DATABASE_URL must point to loopback, not '${server.hostname}'`);
  }
  console.log(
    `tickets API benchmark: ${f0(options.tickets)} tickets, ${f0(options.messages)} messages, ` +
      `${options.requests} requests per scenario, concurrency ${options.concurrency}`,
  );

  // Fresh database, dropped at the end whatever happens.
  const dbName = `zapdesk_bench_api_${crypto.randomBytes(5).toString('hex')}`;
  const maintenance = new pg.Client({ connectionString: options.serverUrl });
  await maintenance.connect();
  await maintenance.query(`create database ${dbName}`);
  await maintenance.end();
  onTeardown('drop database', async () => {
    const c = new pg.Client({ connectionString: options.serverUrl });
    await c.connect();
    try {
      await c.query(`drop database if exists ${dbName} with (force)`);
    } finally {
      await c.end();
    }
  });
  const dbUrl = new URL(options.serverUrl);
  dbUrl.pathname = `/${dbName}`;

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'zapdesk-bench-api-'));
  onTeardown('data dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SESSION_KEY: crypto.randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    HOST: '127.0.0.1',
  });
  const database = await openDatabase({ url: dbUrl.toString() });
  onTeardown('app database pool', () => database.close());
  await database.migrate();
  await seedPlans(database.db);
  const ref = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
  ref.on('error', () => {});
  onTeardown('reference pool', () => ref.end());

  const app = await buildApp({ config, database, secrets: loadSecrets(config), logger: false });
  onTeardown('app', () => app.close());

  // Seed.
  const seedStarted = performance.now();
  const sql = new pg.Client({ connectionString: dbUrl.toString() });
  await sql.connect();
  onTeardown('seed connection', () => sql.end());
  const main = await seedCompany(app, sql, {
    tickets: options.tickets,
    messages: options.messages,
    seed: 0.42,
    withAgent: true,
    numberOffset: 1_234_567,
  });
  const second = await seedCompany(app, sql, {
    tickets: Math.max(100, Math.round(options.tickets / 10)),
    messages: Math.round(options.messages / 10),
    seed: 0.17,
    withAgent: false,
    numberOffset: 7_654_321,
  });
  await sql.query('vacuum analyze');
  console.log(`seeded in ${f1((performance.now() - seedStarted) / 1000)} s (with VACUUM ANALYZE)`);

  // A part of a real contact's number (5 of its last 8 digits).
  const { rows: numberRows } = await sql.query<{ part: string }>(
    `select substr(number, 7, 5) as part from contacts where company_id = $1 order by id offset $2 limit 1`,
    [main.companyId, Math.floor(options.tickets / 3)],
  );
  const numberPart = numberRows[0]!.part;

  let port: number;
  let serverCpuMs = thisProcessCpuMs;
  if (options.workers > 1) {
    const cluster = await startCluster(config, dbUrl.toString(), options);
    onTeardown('worker processes', () => cluster.stop());
    port = cluster.port;
    serverCpuMs = () => processCpuMs([cluster.pid, ...cluster.workers]);
  } else {
    await app.listen({ host: '127.0.0.1', port: 0 });
    port = (app.server.address() as AddressInfo).port;
  }
  const tokenTtl = options.timeoutSeconds + 60;
  const generator = new LoadGenerator();
  onTeardown('load generator', () => generator.close());
  const client = new Client(
    `http://127.0.0.1:${port}`,
    {
      admin: await tokenFor(app, main.admin, tokenTtl),
      agent: await tokenFor(app, main.agent!, tokenTtl),
    },
    ref,
    generator,
    options.encoding || 'identity',
    serverCpuMs,
  );

  // The ticket whose contact has the most messages (the messages page scenario).
  const { rows: busyRows } = await sql.query<{ id: number }>(
    `select t.id from tickets t join messages m on m.contact_id = t.contact_id
     where t.company_id = $1 group by t.id order by count(*) desc, t.id limit 1`,
    [main.companyId],
  );
  const every = scenariosFor(main, numberPart, busyRows[0]!.id);
  const scenarios = options.only.length
    ? every.filter((s) => options.only.some((part) => s.name.includes(part)))
    : every;
  // Sanity: the admin sees exactly the company's tickets, and the other company's never show.
  const all = JSON.parse((await client.get(every[0]!)).body) as {
    count: number;
    tickets: { companyId: number }[];
  };
  if (all.count !== main.tickets || all.tickets.some((t) => t.companyId !== main.companyId)) {
    throw new Error(
      `admin showAll answered count ${all.count}, expected ${main.tickets} of company ${main.companyId}`,
    );
  }

  await warmUp(client, scenarios, options);
  const endLoad = await startLoad(ref, serverCpuMs);
  const results = await measureAll(client, scenarios, options);
  const load = await endLoad();

  // The slowest scenarios by sequential p99 (concurrent misses on a small machine are mostly CPU
  // contention, not plans): those over the target, at least EXPLAIN_AT_LEAST, at most EXPLAIN_AT_MOST.
  const bySlowest = [...results].sort((a, b) => b.sequential.latency.p99 - a.sequential.latency.p99);
  const over = bySlowest.filter((r) => r.sequential.latency.p99 >= TARGET_P99_MS).length;
  const toExplain = bySlowest.slice(0, Math.min(EXPLAIN_AT_MOST, Math.max(EXPLAIN_AT_LEAST, over)));
  const plans: Plan[] = [];
  for (const r of toExplain) {
    for (const plan of await explain(client, ref, r.scenario)) {
      plans.push(plan);
      console.log(`\n--- EXPLAIN (ANALYZE, BUFFERS): ${plan.scenario}, ${plan.kind} query ---\n${plan.text}`);
    }
  }

  const env = await facts(ref, main, second);
  const text = section(options, env, load, results, plans);
  console.log('');
  console.log(resultTable(results, options.concurrency).join('\n'));
  console.log('');
  console.log(planTable(plans).join('\n'));
  console.log('');
  console.log(
    `machine: nproc ${env.nproc} (${env.cpu}), ${env.memoryGiB} GiB, Node ${env.node}; ${env.postgres}; ` +
      env.settings.map(([k, v]) => `${k}=${v}`).join(' '),
  );
  console.log(`data: ${env.volumes}`);
  console.log(`load: ${serverLoadText(load, options)}`);
  if (options.write) {
    writeSection(DOC, HEADING, text);
    console.log(`wrote the '${HEADING.slice(3)}' section of ${path.relative(process.cwd(), DOC)}`);
  }
  clearTimeout(deadline);
  await teardown();
}

main().then(
  () => process.exit(0),
  (error: unknown) => abort(error),
);
