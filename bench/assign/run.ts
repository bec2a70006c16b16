/**
 * Automatic assignment's cost per new ticket (issue aim: under 5 ms of CPU). One company with a
 * round-robin queue and two agents of it online (a live socket each). N times: a new pending ticket
 * of the queue is written (not measured), then the assignment runs for it as the queue bot's job
 * does when it hands a ticket to humans (`assigner.assignWaiting`), measured: CPU of the app process
 * (µs, process.cpuUsage) and of the Postgres backends (their /proc jiffies, summed over the run), and
 * the statements sent. The same for a queue with assignment `off` (what every ticket's end of bot
 * job costs: the lookup alone). No job worker runs meanwhile, so nothing else of the app uses a CPU.
 * Checks: every ticket of the assigning queue open with an agent, the agents' shares within one; the
 * other queue's tickets all pending.
 *
 *   npx tsx --conditions=source bench/assign/run.ts [--tickets 500] [--backends postgres,pglite] [--no-write]
 */
import type { AddressInfo } from 'node:net';
import { and, count, eq } from 'drizzle-orm';
import { io, type Socket } from 'socket.io-client';
import { contacts, tickets } from '../../apps/server/src/db/schema/index.js';
import {
  bearer,
  createCompany,
  createQueue,
  createUser,
  type TestUser,
} from '../../apps/server/src/test/factories.js';
import { type BenchApp, createConnection, openBenchApp } from '../support/app.js';
import { backendCpuMsSince, backendJiffies } from '../support/cpu.js';
import { lastRunLine, loadAverage } from '../support/facts.js';
import { f0, f2, thisProcessCpuMs } from '../support/load.js';
import { benchArgs, countOption, runBench, runPerBackend } from '../support/options.js';
import { commandBlock, writeOrPrint } from '../support/report.js';

const SECTION = 'Automatic assignment (bench/assign)';
const WARM_UP = 20;

interface Side {
  strategy: 'off' | 'round_robin';
  companyId: number;
  queueId: number;
  whatsappId: number;
  agents: TestUser[];
  /** Measured totals: app CPU ms, Postgres CPU ms, statements, tickets. */
  appMs: number;
  dbMs: number;
  statements: number;
  tickets: number;
}

interface Result {
  backend: 'pglite' | 'postgres';
  off: Side;
  on: Side;
  load: string;
}

/** A company with one queue (`strategy`), two agents of it, a simulator connection and a contact. */
async function company(bench: BenchApp, strategy: Side['strategy']): Promise<Side> {
  const { app } = bench;
  const companyId = await createCompany(app);
  const queueId = await createQueue(app, companyId, `Fila ${strategy}`);
  const admin = await createUser(app, companyId, { profile: 'admin' });
  const agents = [
    await createUser(app, companyId, { name: 'Ana', queueIds: [queueId] }),
    await createUser(app, companyId, { name: 'Bia', queueIds: [queueId] }),
  ];
  const whatsappId = await createConnection(app, admin, { name: `Loja ${strategy}`, provider: 'simulator' });
  const res = await app.inject({
    method: 'PUT',
    url: `/api/queue/${queueId}`,
    headers: bearer(admin),
    payload: { autoAssignment: strategy },
  });
  if (res.statusCode !== 200) throw new Error(`queue: ${res.body}`);
  return {
    strategy,
    companyId,
    queueId,
    whatsappId,
    agents,
    appMs: 0,
    dbMs: 0,
    statements: 0,
    tickets: 0,
  };
}

/** Opens a socket for `user` on `url` and resolves once the server sent `ready`. */
function online(url: string, user: TestUser): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    query: { token: user.token },
  });
  return new Promise((resolve, reject) => {
    socket.once('ready', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

async function run(backend: Result['backend'], total: number): Promise<Result> {
  const bench = await openBenchApp(backend, 'assign');
  const sockets: Socket[] = [];
  try {
    const { app } = bench;
    await app.listen({ host: '127.0.0.1', port: 0 });
    const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const off = await company(bench, 'off');
    const on = await company(bench, 'round_robin');
    for (const side of [off, on]) for (const agent of side.agents) sockets.push(await online(url, agent));
    let statements = 0;
    bench.database.onStatement(() => {
      statements++;
    });
    /** A new pending ticket of the side's queue (not measured), then its assignment (measured). */
    let sequence = 0;
    const arrive = async (side: Side, measure: boolean) => {
      // A new customer each time (a contact has one live ticket per connection).
      const [contact] = await app.ctx.db
        .insert(contacts)
        .values({
          companyId: side.companyId,
          name: 'Maria Souza',
          number: `5511${9_000_000_00 + sequence++}`,
        })
        .returning({ id: contacts.id });
      const [ticket] = await app.ctx.db
        .insert(tickets)
        .values({
          companyId: side.companyId,
          contactId: contact!.id,
          whatsappId: side.whatsappId,
          queueId: side.queueId,
          status: 'pending',
        })
        .returning({ id: tickets.id });
      const db0 = measure && bench.ref ? await backendJiffies(bench.ref) : undefined;
      const statements0 = statements;
      const app0 = thisProcessCpuMs();
      await app.assigner.assignWaiting(side.companyId, ticket!.id);
      if (!measure) return;
      side.appMs += thisProcessCpuMs() - app0;
      side.statements += statements - statements0;
      if (bench.ref && db0) side.dbMs += await backendCpuMsSince(bench.ref, db0);
      side.tickets++;
    };
    for (let i = 0; i < WARM_UP; i++) {
      await arrive(off, false);
      await arrive(on, false);
    }
    for (let i = 0; i < total; i++) {
      await arrive(i % 2 ? on : off, true);
      await arrive(i % 2 ? off : on, true);
    }
    const byUser = async (side: Side, status: 'open' | 'pending') =>
      (
        await app.ctx.db
          .select({ userId: tickets.userId, value: count() })
          .from(tickets)
          .where(and(eq(tickets.companyId, side.companyId), eq(tickets.status, status)))
          .groupBy(tickets.userId)
      ).map((r) => ({ userId: r.userId, n: r.value }));
    const written = total + WARM_UP;
    const assigned = await byUser(on, 'open');
    const shares = on.agents.map((a) => assigned.find((r) => r.userId === a.id)?.n ?? 0);
    if (shares[0]! + shares[1]! !== written || Math.abs(shares[0]! - shares[1]!) > 1)
      throw new Error(`round robin gave ${shares.join(' and ')} of ${written} tickets`);
    const waiting = await byUser(off, 'pending');
    if (waiting.reduce((sum, r) => sum + r.n, 0) !== written)
      throw new Error(`the queue without assignment has ${JSON.stringify(waiting)} pending`);
    return { backend, off, on, load: loadAverage() };
  } finally {
    for (const socket of sockets) socket.disconnect();
    await bench.close();
  }
}

/** Per-ticket figures of a side. */
const perTicket = (side: Side) => ({
  app: side.appMs / side.tickets,
  db: side.dbMs / side.tickets,
  statements: side.statements / side.tickets,
});

function section(results: Result[], total: number): string {
  const rows = results.map((r) => {
    const off = perTicket(r.off);
    const on = perTicket(r.on);
    const db = (n: number) => (r.backend === 'postgres' ? f2(n) : '-');
    return `| ${r.backend} | ${f0(r.on.tickets)} | ${f2(on.app)} | ${db(on.db)} | **${f2(on.app + on.db)}** | ${f2(
      on.statements,
    )} | ${f2(off.app)} | ${db(off.db)} | ${f2(off.statements)} | ${r.load} |`;
  });
  return [
    `## ${SECTION}`,
    '',
    `What automatic assignment adds to a new ticket (aim: under 5 ms of CPU). One company with a round-robin queue and two agents of it online (a live socket each), ${f0(total)} times: a new pending ticket of the queue is written (not measured), then the assignment runs for it as the queue bot's job does when it hands a ticket to humans (\`assignWaiting\`: the ticket's lookup, the queue's members and their sockets, then one statement, \`auto_assign_queue\` — the queue's lock, the agents' locks with their open tickets, the waiting tickets, the ticket's update with its \`assigned\` event, the queue's last agent —, the greeting setting, the ticket read back and the socket update), measured: CPU of the app process and of the Postgres backends (their /proc jiffies, summed over the run), and the statements sent. The same for a queue with assignment \`off\`, where only the lookup runs (every bot job's end pays it). No job worker runs meanwhile. Checked: every ticket of the assigning queue open with an agent, the agents' shares within one; the other queue's all pending. The greeting on acceptance is off (the default), so no message is sent.`,
    '',
    ...commandBlock(
      [
        'npx tsx --conditions=source bench/assign/run.ts [--tickets 500] [--backends postgres,pglite] [--no-write]',
      ],
      false,
    ),
    '',
    `${lastRunLine()}.`,
    '',
    '| database | tickets | app CPU ms / ticket | Postgres CPU ms / ticket | CPU ms / ticket | statements / ticket | off: app CPU ms | off: Postgres CPU ms | off: statements | load average |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    "Before [decision 0136](decisions/0136-automatic-assignment-in-one-statement.md) (a job of its own per run, then a transaction of seven statements with the open tickets counted over the company's tickets, and the ticket read back through a select Drizzle wrote anew at each call), the same bench on the same machine: 7.83 ms of app and 4.44 ms of Postgres CPU, 11 statements a ticket on Postgres; 21.3 ms on PGlite.",
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const values = benchArgs({ tickets: '500', backends: 'postgres,pglite' }, ['no-write']);
  const total = countOption('tickets', values.tickets, 20, 100_000);
  const results = await runPerBackend(
    values.backends,
    (backend) => run(backend, total),
    (backend, r) => {
      const on = perTicket(r.on);
      const off = perTicket(r.off);
      return `${backend}: the assignment ${f2(on.app)} ms app + ${f2(on.db)} ms Postgres, ${f2(on.statements)} statements a ticket (off: ${f2(off.app)} + ${f2(off.db)} ms, ${f2(off.statements)}) (load ${r.load})`;
    },
  );
  writeOrPrint(!values['no-write'], `## ${SECTION}`, section(results, total));
}

runBench(main);
