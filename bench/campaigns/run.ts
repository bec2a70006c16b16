/**
 * Campaign throughput and crash safety (bench/campaigns): a campaign to N
 * recipients (default 10,000) of a contact list, interval 0, no jitter, all-day window, no daily
 * cap, on one simulator connection and a Postgres server.
 *
 * Plain run (in this process): the start (one INSERT … SELECT of the shippings) and the send (the
 * connection's pace chain) in shippings per second, CPU ms per shipping (this process and the
 * Postgres backends), memory before and after; every recipient must get exactly one message.
 *
 * Kill run (`--kills 3`, 0 skips it): the same campaign on a fresh database, sent by a server in a
 * child process that is SIGKILLed at random points mid-run and started again on the same database
 * and node id, `--kills` times, then left to finish. Each child appends every message its simulator
 * network accepts to a log file (one synchronous write per message, which survives the kill), so
 * the phones' view outlives the processes. At the end, per recipient: messages the phones got
 * (the log) and outbound messages stored (the database) — reached twice and never reached must
 * both be 0. Rewrites its section of docs/benchmarks.md unless `--no-write`.
 *
 *   npx tsx --conditions=source bench/campaigns/run.ts [--recipients 10000] [--kills 3] [--no-write]
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (the default) names the Postgres server
 */
import type { ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DatabaseHandle } from '../../apps/server/src/db/client.js';
import { seedPlans } from '../../apps/server/src/db/seed.js';
import { STEP_BATCH } from '../../apps/server/src/modules/campaigns/campaign-step.js';
import { bearer, createCompany, createUser, type TestUser } from '../../apps/server/src/test/factories.js';
import { ANY_HOUR_CAMPAIGN_SETTINGS } from '../../apps/server/src/test/fixtures.js';
import { benchEnv, startApp } from '../support/app.js';
import { exitOf, hasExited, inChild, killChild, spawnChild } from '../support/child-server.js';
import { backendJiffies, jiffiesBetween, machineJiffies, machineLoad } from '../support/cpu.js';
import { withPostgresBench } from '../support/database.js';
import { lastRunLine } from '../support/facts.js';
import { f0, f1, f2 } from '../support/load.js';
import { benchArgs, countOption, runBench } from '../support/options.js';
import { commandBlock, writeOrPrint } from '../support/report.js';

const SECTION = 'Campaigns (bench/campaigns)';
const JIFFY_MS = 10;
const MB = 1024 * 1024;
const number = (i: number) => `5511${String(i).padStart(9, '0')}`;
v8.setFlagsFromString('--expose-gc');
/** A full garbage collection before each memory reading, so the heap figures are live data. */
const gc = vm.runInNewContext('gc') as () => void;

/** What a child process needs to run the server on the same database. */
interface Setup {
  url: string;
  env: Record<string, string>;
  whatsappId: number;
  campaignId: number;
  recipients: number;
  owner: TestUser;
  /** The file each child appends the messages its simulator accepted to ("<number>\t<id>" lines). */
  outboxLog: string;
}

/**
 * Creates the company, the connection, the settings (interval 0, no jitter, all day, no cap), the
 * list of `recipients` items and the campaign on a fresh database, through the API (items by SQL).
 * The campaign is left INATIVA.
 */
async function prepare(
  url: string,
  database: DatabaseHandle,
  recipients: number,
  tag: string,
): Promise<Setup> {
  await database.migrate();
  await seedPlans(database.db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `zapdesk-bench-${tag}-`));
  const env = { ...benchEnv(dataDir), NODE_ID: `bench-${tag}-${crypto.randomBytes(3).toString('hex')}` };
  const app = await startApp(database, env);
  try {
    const companyId = await createCompany(app);
    const owner = await createUser(app, companyId, { profile: 'admin' });
    const call = async (method: 'POST' | 'GET', p: string, payload?: object) => {
      const res = await app.inject({ method, url: `/api${p}`, headers: bearer(owner), payload });
      if (res.statusCode >= 300) throw new Error(`${method} ${p}: ${res.statusCode} ${res.body}`);
      return res.json();
    };
    const connection = await call('POST', '/whatsapp', { name: 'Campanhas', provider: 'simulator' });
    await call('POST', '/campaign-settings', { settings: { ...ANY_HOUR_CAMPAIGN_SETTINGS, dailyCap: 0 } });
    const list = await call('POST', '/contact-lists', { name: 'Clientes' });
    await database.db.execute(sql`
      insert into contact_list_items (company_id, contact_list_id, name, number)
      select ${companyId}, ${list.id}, 'Cliente ' || g, '5511' || lpad(g::text, 9, '0')
      from generate_series(1, ${recipients}::int) g`);
    const campaign = await call('POST', '/campaigns', {
      name: 'Tabela de preços',
      message1: 'Olá {{firstName}}, a tabela nova chegou!',
      message2: 'Oi {{firstName}}, confira a tabela nova.',
      contactListId: list.id,
      whatsappId: connection.id,
    });
    // The campaign starts in the measured part (plain run) or before the first child (kill run).
    const outboxLog = path.join(dataDir, 'outbox.log');
    fs.writeFileSync(outboxLog, '');
    return { url, env, whatsappId: connection.id, campaignId: campaign.id, recipients, owner, outboxLog };
  } finally {
    await app.close();
  }
}

/** Per recipient: messages the phones got (the outbox log) and outbound messages stored. */
interface Reach {
  /** Recipients whose phone got more than one message / none (the outbox log). */
  phoneTwice: number;
  phoneNever: number;
  /** Recipients with more than one stored outbound message / none with a provider id (the database). */
  storedTwice: number;
  storedNever: number;
  delivered: number;
}

async function reach(ref: pg.Pool, s: Setup, phones: Map<string, number>): Promise<Reach> {
  const { rows } = await ref.query<{ number: string; stored: number; sent: number }>(
    `select c.number, count(*)::int as stored, count(m.wid)::int as sent
       from messages m join contacts c on c.id = m.contact_id
      where m.from_me and m.whatsapp_id = $1 group by c.number`,
    [s.whatsappId],
  );
  const stored = new Map(rows.map((r) => [r.number, r]));
  const { rows: done } = await ref.query<{ n: number }>(
    `select count(*)::int as n from campaign_shippings where campaign_id = $1 and status = 'delivered'`,
    [s.campaignId],
  );
  const r: Reach = {
    phoneTwice: 0,
    phoneNever: 0,
    storedTwice: 0,
    storedNever: 0,
    delivered: done[0]?.n ?? 0,
  };
  for (let i = 1; i <= s.recipients; i++) {
    const got = phones.get(number(i)) ?? 0;
    if (got > 1) r.phoneTwice++;
    if (got === 0) r.phoneNever++;
    const row = stored.get(number(i));
    if ((row?.stored ?? 0) > 1) r.storedTwice++;
    if (!row?.sent) r.storedNever++;
  }
  return r;
}

interface Throughput extends Reach {
  recipients: number;
  startMs: number;
  sendMs: number;
  nodeCpuMs: number;
  postgresCpuMs: number;
  rssBeforeMb: number;
  rssAfterMb: number;
  heapBeforeMb: number;
  heapAfterMb: number;
  load: number;
  loadAvg: number[];
}

async function throughput(recipients: number): Promise<Throughput> {
  return withPostgresBench('campaigns', async (bench, ref) => {
    const s = await prepare(bench.url, bench.database, recipients, 'campaigns');
    const app = await startApp(bench.database, s.env);
    try {
      await app.jobs.work();
      await app.sessions.startAll();
      gc();
      const memory0 = process.memoryUsage();
      const machine0 = machineJiffies();
      const backends0 = await backendJiffies(ref);
      const cpu0 = process.cpuUsage();
      const start0 = performance.now();
      const res = await app.inject({
        method: 'POST',
        url: `/api/campaigns/${s.campaignId}/restart`,
        headers: bearer(s.owner),
      });
      if (res.statusCode >= 300) throw new Error(`restart: ${res.statusCode} ${res.body}`);
      const startMs = performance.now() - start0;
      const send0 = performance.now();
      await waitFinished(ref, s.campaignId);
      const sendMs = performance.now() - send0;
      const cpu = process.cpuUsage(cpu0);
      const backends1 = await backendJiffies(ref);
      const machine1 = machineJiffies();
      const loadAvg = os.loadavg();
      gc();
      const memory1 = process.memoryUsage();
      const jiffies = jiffiesBetween(backends0, backends1);
      await app.jobs.idle();
      const phones = new Map<string, number>();
      for (let i = 1; i <= recipients; i++)
        phones.set(number(i), app.simulator.outbox(s.whatsappId, number(i)).length);
      return {
        recipients,
        startMs,
        sendMs,
        nodeCpuMs: (cpu.user + cpu.system) / 1000,
        postgresCpuMs: jiffies * JIFFY_MS,
        rssBeforeMb: memory0.rss / MB,
        rssAfterMb: memory1.rss / MB,
        heapBeforeMb: memory0.heapUsed / MB,
        heapAfterMb: memory1.heapUsed / MB,
        load: machineLoad(machine0, machine1),
        loadAvg,
        ...(await reach(ref, s, phones)),
      };
    } finally {
      await app.close();
      fs.rmSync(s.env.DATA_DIR!, { recursive: true, force: true });
    }
  });
}

/** Polls until the campaign is FINALIZADA. */
async function waitFinished(ref: pg.Pool, campaignId: number): Promise<void> {
  for (;;) {
    const { rows } = await ref.query<{ status: string }>('select status from campaigns where id = $1', [
      campaignId,
    ]);
    if (rows[0]?.status === 'FINALIZADA') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Kills extends Reach {
  recipients: number;
  /** Delivered shippings when each kill came. */
  killedAt: number[];
  wallMs: number;
  /** Messages stored but not yet handed to the phone at each kill (ack 0 after it). */
  inFlightAtKills: number[];
  /** CPU of the server children, their start-ups included (the last one's up to 50 ms before its exit). */
  childCpuMs: number;
  /** The highest resident size a child reached, MB. */
  childRssPeakMb: number;
  /** Share of all cores busy during the kill run. */
  load: number;
}

/** CPU ms and resident MB of a running process, from /proc/<pid>/stat (undefined once it is gone). */
function processUsage(pid: number): { cpuMs: number; rssMb: number } | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state is field 3, utime 14, stime 15, rss (pages) 24.
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { cpuMs: ticks * JIFFY_MS, rssMb: (Number(fields[21]) * 4096) / MB };
  } catch {
    return undefined;
  }
}

/**
 * Samples a child's CPU and memory every 50 ms until it exits: its last CPU reading (a killed
 * process's is at most 50 ms stale) and its highest resident size.
 */
function watch(proc: ChildProcess): {
  usage: { cpuMs: number; rssPeakMb: number };
  exited: Promise<number | null>;
} {
  const usage = { cpuMs: 0, rssPeakMb: 0 };
  const sample = () => {
    const now = proc.pid ? processUsage(proc.pid) : undefined;
    if (!now) return;
    usage.cpuMs = now.cpuMs;
    usage.rssPeakMb = Math.max(usage.rssPeakMb, now.rssMb);
  };
  const timer = setInterval(sample, 50);
  const exited = exitOf(proc).finally(() => clearInterval(timer));
  return { usage, exited };
}

/** The environment variable that hands a child its Setup. */
const SETUP_ENV = 'BENCH_CAMPAIGNS_SETUP';
const child = (s: Setup): ChildProcess => spawnChild(import.meta.url, SETUP_ENV, s);

async function killRun(recipients: number, kills: number): Promise<Kills> {
  return withPostgresBench('campaigns_kill', async (bench, ref) => {
    const s = await prepare(bench.url, bench.database, recipients, 'campaigns-kill');
    try {
      // Started through the API with no worker here: the first child's queue takes the pace job.
      const app = await startApp(bench.database, s.env);
      const res = await app.inject({
        method: 'POST',
        url: `/api/campaigns/${s.campaignId}/restart`,
        headers: bearer(s.owner),
      });
      await app.close();
      if (res.statusCode >= 300) throw new Error(`restart: ${res.statusCode} ${res.body}`);
      await bench.database.close();
      // Random kill points spread over the run: the i-th in the i-th of `kills` equal slices of 10–90 %.
      const targets = Array.from({ length: kills }, (_, i) =>
        Math.round(recipients * (0.1 + (0.8 * (i + Math.random())) / kills)),
      );
      const delivered = async () =>
        (
          await ref.query<{ n: number }>(
            `select count(*)::int as n from campaign_shippings where campaign_id = $1 and status = 'delivered'`,
            [s.campaignId],
          )
        ).rows[0]?.n ?? 0;
      const killedAt: number[] = [];
      const inFlightAtKills: number[] = [];
      const usages: { cpuMs: number; rssPeakMb: number }[] = [];
      const machine0 = machineJiffies();
      const t0 = performance.now();
      for (const target of targets) {
        const proc = child(s);
        const { usage, exited } = watch(proc);
        usages.push(usage);
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (hasExited(proc)) throw new Error('a child finished before it could be killed');
          if ((await delivered()) >= target) break;
        }
        // A random instant within the next few steps, not right after a poll.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 300));
        if (proc.pid) Object.assign(usage, { cpuMs: processUsage(proc.pid)?.cpuMs ?? usage.cpuMs });
        await killChild(proc);
        await exited;
        killedAt.push(await delivered());
        const { rows } = await ref.query<{ n: number }>(
          'select count(*)::int as n from messages where from_me and ack = 0 and wid is null and whatsapp_id = $1',
          [s.whatsappId],
        );
        inFlightAtKills.push(rows[0]?.n ?? 0);
      }
      const last = watch(child(s));
      usages.push(last.usage);
      const code = await last.exited;
      if (code !== 0) throw new Error(`the last child exited with ${String(code)}`);
      const wallMs = performance.now() - t0;
      const machine1 = machineJiffies();
      // A phone holds a message once per id, as WhatsApp's do: a resend after a kill carries the
      // stored message's id (outboundProviderId), so it counts once.
      const ids = new Map<string, Set<string>>();
      for (const line of fs.readFileSync(s.outboxLog, 'utf8').split('\n')) {
        const [to, id] = line.split('\t');
        if (to && id) ids.set(to, (ids.get(to) ?? new Set()).add(id));
      }
      const phones = new Map([...ids].map(([to, held]) => [to, held.size] as const));
      return {
        recipients,
        killedAt,
        inFlightAtKills,
        wallMs,
        childCpuMs: usages.reduce((sum, u) => sum + u.cpuMs, 0),
        childRssPeakMb: Math.max(...usages.map((u) => u.rssPeakMb)),
        load: machineLoad(machine0, machine1),
        ...(await reach(ref, s, phones)),
      };
    } finally {
      fs.rmSync(s.env.DATA_DIR!, { recursive: true, force: true });
    }
  });
}

/**
 * The child: the server on the same database and node id, its simulator network logging every
 * accepted message to the outbox log; starts the sessions (as main.ts does) and runs until the
 * campaign is FINALIZADA and nothing waits at ack 0.
 */
function runChild(): Promise<void> {
  return inChild<Setup>(SETUP_ENV, async (s, app, ref) => {
    const log = fs.openSync(s.outboxLog, 'a');
    const network = app.simulator;
    const deliver = network.deliver.bind(network);
    network.deliver = (connectionId, to, kind, body, quotedId) => {
      const item = deliver(connectionId, to, kind, body, quotedId);
      fs.writeSync(log, `${to}\t${item.id}\n`);
      return item;
    };
    try {
      await app.jobs.work();
      await app.sessions.startAll();
      await waitFinished(ref, s.campaignId);
      for (;;) {
        const { rows } = await ref.query<{ n: number }>(
          'select count(*)::int as n from messages where from_me and ack = 0 and wid is null and whatsapp_id = $1',
          [s.whatsappId],
        );
        if (!rows[0]?.n) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await app.jobs.idle();
    } finally {
      fs.closeSync(log);
    }
  });
}

function section(t: Throughput, k: Kills | undefined): string {
  const perSecond = t.recipients / (t.sendMs / 1000);
  const cpuPerShipping = (t.nodeCpuMs + t.postgresCpuMs) / t.recipients;
  return [
    `## ${SECTION}`,
    '',
    `One campaign to ${f0(t.recipients)} recipients of a contact list (two variants with \`{{firstName}}\`), interval 0, no jitter, all-day window, no daily cap, on one simulator connection and the Postgres server. *Start* is POST /campaigns/:id/restart: one INSERT … SELECT of the shippings. *Send* runs the connection's pace chain until FINALIZADA: each step claims up to ${STEP_BATCH} due shippings (FOR UPDATE SKIP LOCKED), resolves their opt-outs, contacts and closed tickets set-based, stores all their messages at ack 0 and marks them delivered in the same transaction; then the batch goes to the simulator in one pass (one claim, one UPDATE of the provider ids) and the simulated phones' acks 2 and 3 come back. *Node CPU* is the server process (plus this benchmark's polling); *Postgres CPU* the backends of the benchmark database; *busy* is the whole machine during the send. Memory is read after a full garbage collection; the heap after the send includes the simulator's outbox, which keeps every message sent in the same process.`,
    '',
    ...commandBlock(
      ['npx tsx --conditions=source bench/campaigns/run.ts [--recipients 10000] [--kills 3] [--no-write]'],
      false,
    ),
    '',
    `${lastRunLine()}; the machine was shared with other work (busy ${f0(t.load * 100)} % of all cores during the send, load average ${t.loadAvg.map((l) => f2(l)).join(' / ')} at its end).`,
    '',
    '| recipients | start s | send s | shippings/s | Node CPU ms / shipping | Postgres CPU ms / shipping | RSS MB before → after | heap MB before → after | reached twice | never |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| ${f0(t.recipients)} | ${f2(t.startMs / 1000)} | ${f1(t.sendMs / 1000)} | **${f0(perSecond)}** | ${f2(t.nodeCpuMs / t.recipients)} | ${f2(t.postgresCpuMs / t.recipients)} | ${f0(t.rssBeforeMb)} → ${f0(t.rssAfterMb)} | ${f0(t.heapBeforeMb)} → ${f0(t.heapAfterMb)} | ${t.phoneTwice} | ${t.phoneNever} |`,
    '',
    `The aim of 200 shippings per second ${perSecond >= 200 ? 'is reached' : '**is not reached**'}: ${f2(cpuPerShipping)} ms of CPU (Node and Postgres) per shipping against ${f2(t.sendMs / t.recipients)} ms of wall time. The rest is round-trip latency and waiting for a core on a machine kept busy by other work. One connection's pace is one chain of jobs, so its batches run one after the other; campaigns on several connections run their chains in parallel. Before the batch step (one shipping per step, some 25 sequential round trips each) this benchmark measured 17 shippings/s and 16 ms of CPU per shipping (2,000 recipients).`,
    '',
    k
      ? `**Kill test.** The same campaign on a fresh database, sent by the server in a child process (tsx running buildApp and starting the sessions as main.ts does, same node id each time), SIGKILLed ${k.killedAt.length} times at random points (when ${k.killedAt.map((n) => f0(n)).join(', ')} shippings were delivered; messages stored and not yet handed to the phone at each kill: ${k.inFlightAtKills.map((n) => f0(n)).join(', ')}) and started again each time; the last child runs to the end: ${f1(k.wallMs / 1000)} s in all, restarts and ${k.killedAt.length + 1} start-ups of tsx included (${f0(k.recipients / (k.wallMs / 1000))} shippings/s over the whole), ${f2(k.childCpuMs / k.recipients)} ms of server CPU per shipping (the children's, start-ups included; the Postgres backends of killed children leave no count), a child's resident size at most ${f0(k.childRssPeakMb)} MB, the machine busy ${f0(k.load * 100)} %. Each child appends every message its simulator network accepts to a log file with a synchronous write, so the phones' view survives the kills. Of ${f0(k.recipients)} recipients (${f0(k.delivered)} shippings delivered): by the phones' log, reached twice **${k.phoneTwice}**, never reached **${k.phoneNever}**; by the database, recipients with two stored messages **${k.storedTwice}**, without a sent one **${k.storedNever}**.`
      : 'Kill test: not run (`--kills 0`).',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const values = benchArgs({ recipients: '10000', kills: '3' }, ['child', 'no-write']);
  if (values.child) return runChild();
  const recipients = countOption('recipients', values.recipients, 1, 1_000_000);
  const kills = countOption('kills', values.kills, 0, 20);
  const t = await throughput(recipients);
  console.log(
    `${recipients} shippings: start ${f2(t.startMs / 1000)} s, send ${f1(t.sendMs / 1000)} s = ` +
      `${f0(recipients / (t.sendMs / 1000))}/s, Node CPU ${f2(t.nodeCpuMs / recipients)} ms, ` +
      `Postgres CPU ${f2(t.postgresCpuMs / recipients)} ms per shipping, twice ${t.phoneTwice}, never ${t.phoneNever}`,
  );
  let k: Kills | undefined;
  if (kills > 0) {
    k = await killRun(recipients, kills);
    console.log(
      `kills at ${k.killedAt.join(', ')} (in flight ${k.inFlightAtKills.join(', ')}): phones twice ${k.phoneTwice}, ` +
        `never ${k.phoneNever}; stored twice ${k.storedTwice}, never sent ${k.storedNever}; ` +
        `${f1(k.wallMs / 1000)} s, child CPU ${f2(k.childCpuMs / recipients)} ms/shipping, RSS peak ${f0(k.childRssPeakMb)} MB`,
    );
  }
  const text = section(t, k);
  writeOrPrint(!values['no-write'], `## ${SECTION}`, text);
  const bad = (r: Reach | undefined) =>
    !!r && (r.phoneTwice || r.phoneNever || r.storedTwice || r.storedNever);
  if (bad(t) || bad(k)) process.exitCode = 1;
}

runBench(main);
