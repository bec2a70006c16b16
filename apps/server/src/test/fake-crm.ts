/**
 * A local fake of Perfex CRM's REST API (`authtoken` header, form bodies): customers (create,
 * update, search by name or website), invoices (create, search by number, read by id with its
 * items, update with removed_items/newitems, delete). `nextWrite` answers the next POST or PUT
 * with a given status and body, or drops the connection ('down'); `failNext` does the same for the
 * next request of one method and path only. Loopback only.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** An invoice as the fake CRM keeps it: its create form, its item ids and the update forms. */
export interface FakeCrmInvoice {
  id: string;
  number: string;
  hash: string;
  form: URLSearchParams;
  items: string[];
  updates: URLSearchParams[];
}

/** A forced answer of the fake: a status and JSON body, or 'down' (the connection dropped). */
export type FakeCrmAnswer = { status: number; body: unknown } | 'down';

/** The running fake and what it saw. */
export interface FakeCrm {
  url: string;
  token: string;
  customers: { userid: string; company: string; website: string }[];
  crmInvoices: FakeCrmInvoice[];
  seen: { method: string; url: string; token: string | undefined }[];
  /** The next answer to a write (POST/PUT), or 'down' to drop the connection; used once. */
  nextWrite: FakeCrmAnswer | null;
  /**
   * The next answer to a request of `method` whose path starts with `path` (e.g. POST
   * '/api/invoices'), or 'down' to drop its connection; used once, other requests answer as usual.
   */
  failNext: { method: string; path: string; answer: FakeCrmAnswer } | null;
  close: () => Promise<void>;
}

/** Starts the fake Perfex CRM on a loopback port. */
export async function startFakeCrm(token = 'perfex-secret-token'): Promise<FakeCrm> {
  const state: FakeCrm = {
    url: '',
    token,
    customers: [],
    crmInvoices: [],
    seen: [],
    nextWrite: null,
    failNext: null,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const { customers, crmInvoices, seen } = state;
  const TOKEN = token;
  let itemSeq = 900;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, token: req.headers.authtoken as string });
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.headers.authtoken !== TOKEN) return send(401, { status: false, message: 'Token' });
      const form = new URLSearchParams(raw);
      const url = decodeURIComponent(req.url ?? '');
      const forced = (answer: FakeCrmAnswer) =>
        answer === 'down' ? req.socket.destroy() : send(answer.status, answer.body);
      const fail = state.failNext;
      if (fail && req.method === fail.method && url.startsWith(fail.path)) {
        state.failNext = null;
        return forced(fail.answer);
      }
      if (state.nextWrite && (req.method === 'POST' || req.method === 'PUT')) {
        const answer = state.nextWrite;
        state.nextWrite = null;
        return forced(answer);
      }
      if (req.method === 'GET' && url.startsWith('/api/customers/search/')) {
        const key = url.slice('/api/customers/search/'.length);
        const found = customers.filter((c) => c.company.includes(key) || c.website.includes(key));
        return found.length ? send(200, found) : send(404, { status: false, message: 'No data were found' });
      }
      if (req.method === 'POST' && url === '/api/customers') {
        customers.push({
          userid: String(100 + customers.length),
          company: form.get('company')!,
          website: form.get('website') ?? '',
        });
        return send(200, { status: true, message: 'Client add successful.' });
      }
      if (req.method === 'PUT' && url.startsWith('/api/customers/')) {
        return send(200, { status: true, message: 'Client Update Successful.' });
      }
      if (req.method === 'POST' && url === '/api/invoices') {
        crmInvoices.push({
          id: String(500 + crmInvoices.length),
          number: form.get('number')!,
          hash: 'h4sh',
          form,
          items: [String(itemSeq++)],
          updates: [],
        });
        return send(200, { status: true, message: 'Invoice Added Successfully' });
      }
      if (req.method === 'GET' && url.startsWith('/api/invoices/search/')) {
        const key = url.slice('/api/invoices/search/'.length);
        return send(
          200,
          crmInvoices.filter((i) => i.number === key).map(({ id, number, hash }) => ({ id, number, hash })),
        );
      }
      const byId = url.match(/^\/api\/invoices\/(\d+)$/)?.[1];
      const invoice = crmInvoices.find((i) => i.id === byId);
      if (req.method === 'GET' && byId) {
        if (!invoice) return send(404, { status: false, message: 'No data were found' });
        const { id, number, hash, form: created } = invoice;
        return send(200, {
          id,
          number,
          hash,
          clientid: created.get('clientid'),
          items: invoice.items.map((item) => ({ id: item, rel_type: 'invoice' })),
        });
      }
      if (req.method === 'PUT' && byId && invoice) {
        invoice.updates.push(form);
        const removed = [...form.entries()].filter(([k]) => k.startsWith('removed_items')).map(([, v]) => v);
        invoice.items = invoice.items.filter((item) => !removed.includes(item));
        invoice.items.push(String(itemSeq++));
        return send(200, { status: true, message: 'Invoice Updated Successfully' });
      }
      if (req.method === 'DELETE' && url.startsWith('/api/invoices/')) {
        return send(200, { status: true, message: 'Invoice Deleted Successfully' });
      }
      send(404, { status: false, message: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
