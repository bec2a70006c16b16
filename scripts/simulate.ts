/**
 * Plays a customer on a simulator connection from the command line:
 *   npm run simulate -- --from 5511999990001 --text 'Olá' [--name Maria] [--url http://localhost:8080]
 *                       [--email admin@zapdesk.local --password demo-admin] [--connection ID]
 * Signs in as a company admin, picks the first simulator connection (or --connection), injects the
 * message and prints the stored message and ticket ids.
 */
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: 'http://localhost:8080' },
    from: { type: 'string' },
    text: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string', default: 'admin@zapdesk.local' },
    password: { type: 'string', default: 'demo-admin' },
    connection: { type: 'string' },
  },
});

async function call<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const res = await fetch(`${values.url}/api${path}`, {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
  });
  const body = res.status === 204 ? undefined : await res.json();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body as T;
}

async function main(): Promise<void> {
  if (!values.from || !values.text)
    throw new Error("usage: npm run simulate -- --from NUMBER --text 'message'");
  const { token } = await call<{ token: string }>('/auth/login', {
    method: 'POST',
    body: JSON.stringify({ email: values.email, password: values.password }),
  });
  const connections = await call<{ id: number; name: string; provider: string }[]>('/whatsapp', { token });
  const target = values.connection
    ? connections.find((c) => c.id === Number(values.connection))
    : connections.find((c) => c.provider === 'simulator');
  if (!target) throw new Error('no simulator connection');
  const stored = await call<{ id: number; ticketId: number }>(`/simulator/${target.id}/messages`, {
    method: 'POST',
    token,
    body: JSON.stringify({ from: values.from, name: values.name, body: values.text }),
  });
  console.log(`sent on '${target.name}': message ${stored.id}, ticket ${stored.ticketId}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
