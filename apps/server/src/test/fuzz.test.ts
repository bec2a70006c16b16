/**
 * Bad input never answers 5xx. Every operation of the OpenAPI document is called with generated
 * bad path ids, queries and bodies (schema-aware edge values: ids past int4, NUL bytes, huge and
 * empty strings, wrong types), with raw bodies that are not JSON and with `multipart/form-data`
 * lacking its boundary. A fixed seed keeps the cases the same on every run; a new route joins the
 * sweep by being in the document. Afterwards the server still answers. The sweep runs again, with
 * fewer cases, with the API at the root (API_PREFIX ''); socket.io handshakes with forged, ended and
 * malformed tokens, and malformed engine.io requests, are refused without a 5xx. Every operation
 * taking a body also gets arrays and objects nested 20,000 deep, 5,000-long arrays and 5,000-key
 * objects, while `/health` is asked alongside and must answer within a second each time.
 */
import fc from 'fast-check';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tags } from '../db/schema/index.js';
import { revokeSessions } from '../modules/auth/sessions.js';
import { signAccessToken } from '../modules/auth/tokens.js';
import {
  bearer,
  createSuperUser,
  createTenant,
  customerNumber,
  type TenantFixture,
  type TestUser,
  tokenFor,
} from './factories.js';
import { listenLocally } from './sockets.js';
import { createTestApp, type TestApp } from './test-app.js';

/** Cases per operation; with ~80 operations and three kinds of case this is a few thousand requests. */
const CASES_PER_OPERATION = Number(process.env.FUZZ_CASES ?? 32);
/** The same sweep at the root (API_PREFIX empty) only checks the prefix changes nothing: fewer cases. */
const CASES_PER_OPERATION_AT_ROOT = 8;
/** FUZZ_SEED and FUZZ_CASES explore further by hand; CI keeps the defaults. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_123);

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
}
interface Operation {
  method: string;
  path: string;
  pathParams: string[];
  queryParams: Record<string, JsonSchema>;
  body?: JsonSchema;
  role?: string;
}

const EDGE_INTEGERS = [0, -1, 1, 2, 2_147_483_647, 2_147_483_648, -2_147_483_649, 1e20, 2 ** 53 + 2, 1.5];
const EDGE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'x'.repeat(70_000),
  '😀🇧🇷',
  '\uD800',
  '<svg onload=alert(1)>',
  "' or 1=1 --",
  '2026-13-45',
  '2147483648',
  '-1',
  'true',
  'null',
  '%00',
];
const WRONG_TYPES: unknown[] = [null, 'text', 7, 2_147_483_648, true, [], {}, [null], { id: 'x' }];

/** Values around a JSON schema: mostly of its type with edge values, sometimes of a wrong type. */
function arbitraryFor(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const wrong = fc.constantFrom(...WRONG_TYPES);
  if (!schema || depth > 4) return fc.oneof(wrong, fc.jsonValue({ maxDepth: 2 }));
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => arbitraryFor(s, depth + 1)), wrong);
  if (schema.enum?.length) return fc.oneof(fc.constantFrom(...schema.enum), wrong);
  if (schema.const !== undefined) return fc.oneof(fc.constant(schema.const), wrong);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...EDGE_INTEGERS) }, fc.integer(), wrong);
    case 'string':
      return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...EDGE_STRINGS) }, fc.string(), wrong);
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom(0, 1, 'false'), wrong);
    case 'array':
      return fc.oneof(
        { weight: 3, arbitrary: fc.array(arbitraryFor(schema.items, depth + 1), { maxLength: 4 }) },
        wrong,
      );
    case 'object': {
      const props = schema.properties ?? {};
      const keys = Object.keys(props);
      if (!keys.length) return fc.oneof(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 })), wrong);
      const record = fc.record(Object.fromEntries(keys.map((k) => [k, arbitraryFor(props[k], depth + 1)])), {
        requiredKeys: [],
      });
      return fc.oneof({ weight: 4, arbitrary: record }, wrong);
    }
    default:
      return fc.oneof(wrong, fc.jsonValue({ maxDepth: 2 }));
  }
}

/**
 * A plausible value for a schema (a real id for integers, a short text, the first enum value): the
 * base that `mutatedBody` breaks one field of, so that handlers past the schema are reached.
 */
function plausible(schema: JsonSchema | undefined, id: number, depth = 0): unknown {
  if (!schema || depth > 4) return null;
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants?.length) return plausible(variants[0], id, depth + 1);
  if (schema.enum?.length) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return id;
    case 'string':
      return 'Fuzz 123';
    case 'boolean':
      return false;
    case 'array':
      return [plausible(schema.items, id, depth + 1)];
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v, id, depth + 1)]),
      );
    default:
      return null;
  }
}

/** A plausible body with one top-level field replaced by an edge value of its type (or a wrong one). */
function mutatedBody(schema: JsonSchema | undefined, ids: number[]): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema?.properties ?? {});
  if (!schema || !keys.length) return arbitraryFor(schema);
  return fc
    .record({ id: fc.constantFrom(...ids), key: fc.constantFrom(...keys), seed: fc.integer() })
    .chain(({ id, key }) =>
      arbitraryFor(schema.properties?.[key]).map((value) => ({
        ...(plausible(schema, id) as Record<string, unknown>),
        [key]: value,
      })),
    );
}

const EDGE_PATH_IDS = [
  '0',
  '-1',
  '2147483647',
  '2147483648',
  '99999999999999999999',
  '1e3',
  '1.5',
  '0x10',
  'abc',
  '%00',
  'a%00b',
  '%F0%9F%98%80',
  'x'.repeat(180),
  '%E0%A4%A',
];

/** Operations from the OpenAPI document (every registered route with a schema). */
function operationsOf(document: { paths?: Record<string, Record<string, unknown>> }): Operation[] {
  const result: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, raw] of Object.entries(methods)) {
      const op = raw as {
        parameters?: { in: string; name: string; schema?: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
      };
      const params = op.parameters ?? [];
      result.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        queryParams: Object.fromEntries(
          params.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}]),
        ),
        body: op.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return result;
}

interface Fixture {
  t: TestApp;
  tenant: TenantFixture;
  superUser: TestUser;
  /** Ids of company A's records: path ids that reach deep into the handlers. */
  realIds: number[];
}

/** An app (with `env`) holding one company with a connection, a ticket, a message and a tag. */
async function fixture(env: Record<string, string> = {}): Promise<Fixture> {
  const t = await createTestApp({ LOGIN_RATE_MAX: '100000', ...env });
  const prefix = t.config.API_PREFIX;
  const tenant = await createTenant(t.app);
  const superUser = await createSuperUser(t.app);
  const res = await t.app.inject({
    method: 'POST',
    url: `${prefix}/whatsapp`,
    headers: bearer(tenant.admin),
    payload: { name: 'Fuzz', provider: 'simulator' },
  });
  const whatsappId = res.json().id as number;
  const inbound = await t.app.inject({
    method: 'POST',
    url: `${prefix}/simulator/${whatsappId}/messages`,
    headers: bearer(tenant.admin),
    payload: { from: customerNumber(), body: 'oi' },
  });
  const { id: messageId, ticketId } = inbound.json() as { id: number; ticketId: number };
  const [tag] = await t.app.ctx.db
    .insert(tags)
    .values({ companyId: tenant.companyId, name: 'Fuzz' })
    .returning({ id: tags.id });
  const realIds = [
    ...new Set([whatsappId, ticketId, messageId, tag!.id, tenant.queueId, tenant.agent.id]),
  ].filter((id) => id !== tenant.admin.id);
  return { t, tenant, superUser, realIds };
}

/**
 * Sends `casesPerOperation` generated cases to every operation of the app's OpenAPI document, plus
 * a multipart body without boundary, truncated JSON and plain text to every POST and PUT.
 * @returns the 5xx answers (empty when all is well) and how many requests were sent.
 */
async function sweep(fx: Fixture, casesPerOperation: number): Promise<{ failures: string[]; sent: number }> {
  const { t, tenant, superUser, realIds } = fx;
  const prefix = t.config.API_PREFIX;
  const operations = operationsOf(t.app.swagger() as never).filter(
    (op) => !op.path.startsWith(`${prefix}/docs`) && op.method !== 'HEAD',
  );
  expect(operations.length).toBeGreaterThan(60);
  const failures: string[] = [];
  let sent = 0;
  const send = async (
    op: Operation,
    user: TestUser,
    url: string,
    payload: string | undefined,
    contentType: string | undefined,
  ) => {
    const headers: Record<string, string> = { ...bearer(user) };
    if (contentType) headers['content-type'] = contentType;
    const res = await t.app.inject({ method: op.method as 'GET', url, headers, payload });
    sent++;
    if (res.statusCode >= 500) {
      const shown = (payload ?? '').slice(0, 160);
      failures.push(
        `${res.statusCode} ${op.method} ${url.slice(0, 200)} ${shown} -> ${res.body.slice(0, 200)}`,
      );
    }
  };
  for (const [index, op] of operations.entries()) {
    // Some operations end the caller's session (logout): each operation starts with a live one.
    for (const u of [tenant.admin, superUser]) u.token = await tokenFor(t.app, u);
    const user =
      op.path.startsWith(`${prefix}/companies`) || op.path.startsWith(`${prefix}/plans`)
        ? superUser
        : tenant.admin;
    const pathId = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...EDGE_PATH_IDS) },
      fc.constantFrom(...realIds.map(String)),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const query = fc.record(
      Object.fromEntries(
        Object.entries(op.queryParams).map(([name, schema]) => [
          name,
          arbitraryFor(schema).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
        ]),
      ),
      { requiredKeys: [] },
    );
    const caseArb = fc.record({
      params: fc.array(pathId, { minLength: op.pathParams.length, maxLength: op.pathParams.length }),
      query,
      body: fc.oneof(arbitraryFor(op.body ?? { type: 'object' }), mutatedBody(op.body, realIds)),
    });
    const cases = fc.sample(caseArb, { seed: SEED + index, numRuns: casesPerOperation });
    for (const c of cases) {
      let url = op.path;
      op.pathParams.forEach((name, i) => {
        url = url.replace(`{${name}}`, c.params[i] ?? '1');
      });
      const search = new URLSearchParams(c.query as Record<string, string>).toString();
      const full = search ? `${url}?${search}` : url;
      const hasBody = op.method !== 'GET' && op.method !== 'DELETE';
      await send(
        op,
        user,
        full,
        hasBody ? JSON.stringify(c.body) : undefined,
        hasBody ? 'application/json' : undefined,
      );
    }
    if (op.method === 'POST' || op.method === 'PUT') {
      const url = op.path.replace(/\{[^}]+\}/g, String(realIds[0]));
      await send(
        op,
        user,
        url,
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
        'multipart/form-data',
      );
      await send(op, user, url, '{"a":', 'application/json');
      await send(op, user, url, 'plain text', 'text/plain');
    }
  }
  return { failures, sent };
}

/** How deep the nested bodies go: far past MAX_JSON_DEPTH and past what a recursive walk survives. */
const NESTING = 20_000;
/** Elements of the long arrays and keys of the wide objects. */
const WIDTH = 5_000;
/** The slowest `/health` answer allowed while the nested, long and wide bodies are in flight. */
const HEALTH_BUDGET_MS = 1000;

/** A JSON value nested `levels` deep: arrays `[[[...]]]` or objects `{"a":{"a":...}}`. */
function nested(kind: 'array' | 'object', levels: number): string {
  return kind === 'array'
    ? `${'['.repeat(levels)}1${']'.repeat(levels)}`
    : `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}

/**
 * The shape attacks on one operation's body, as JSON text: arrays and objects nested NESTING deep
 * (as the body and as its first field), WIDTH long arrays (as the body and in every array field, of
 * plausible items) and WIDTH wide objects (as a body without fields, and in every object field).
 */
function shapeBodies(schema: JsonSchema | undefined, id: number): string[] {
  const base = plausible(schema, id);
  const fields = Object.entries(schema?.properties ?? {});
  const withField = (key: string, json: string) => {
    const rest = JSON.stringify({ ...(base as Record<string, unknown>), [key]: null });
    return rest.replace(`${JSON.stringify(key)}:null`, `${JSON.stringify(key)}:${json}`);
  };
  const wide = (n: number) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])));
  const long = (item: unknown) => JSON.stringify(Array.from({ length: WIDTH }, () => item));
  const bodies = [nested('array', NESTING), nested('object', NESTING), long(id)];
  const first = fields[0]?.[0];
  if (first) bodies.push(withField(first, nested(id % 2 ? 'array' : 'object', NESTING)));
  else bodies.push(wide(WIDTH));
  const arrays = fields.filter(
    ([, f]) => f.type === 'array' || (Array.isArray(f.type) && f.type.includes('array')),
  );
  const objects = fields.filter(
    ([, f]) => f.type === 'object' || (Array.isArray(f.type) && f.type.includes('object')),
  );
  if (arrays.length) {
    const replaced = Object.fromEntries(
      arrays.map(([key, f]) => [key, Array.from({ length: WIDTH }, () => plausible(f.items, id))]),
    );
    bodies.push(JSON.stringify({ ...(base as Record<string, unknown>), ...replaced }));
  }
  for (const [key] of objects) bodies.push(withField(key, wide(WIDTH)));
  // Past the body limit the answer is 413 before any parse; kept under it so the parse is reached.
  return bodies.map((body) => (body.length < 1_000_000 ? body : body.slice(0, 999_000)));
}

/**
 * Sends shapeBodies to every operation that takes a body while `/health` is asked again and again
 * alongside. @returns the 5xx answers, the slowest health answer (ms) and how many were sent.
 */
async function shapeSweep(
  fx: Fixture,
): Promise<{ failures: string[]; slowestHealthMs: number; sent: number }> {
  const { t, tenant, superUser, realIds } = fx;
  const prefix = t.config.API_PREFIX;
  const operations = operationsOf(t.app.swagger() as never).filter(
    (op) => !op.path.startsWith(`${prefix}/docs`) && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(op.method),
  );
  expect(operations.length).toBeGreaterThan(30);
  const failures: string[] = [];
  let sent = 0;
  let running = true;
  let slowestHealthMs = 0;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: `${prefix}/health` });
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      if (res.statusCode !== 200) failures.push(`${res.statusCode} GET ${prefix}/health`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  try {
    for (const op of operations) {
      const user =
        op.path.startsWith(`${prefix}/companies`) || op.path.startsWith(`${prefix}/plans`)
          ? superUser
          : tenant.admin;
      // A body that got through may have ended the session (logout): each operation starts with a live one.
      user.token = await tokenFor(t.app, user);
      const url = op.path.replace(/\{[^}]+\}/g, String(realIds[0]));
      for (const payload of shapeBodies(op.body, realIds[0]!)) {
        const res = await t.app.inject({
          method: op.method as 'POST',
          url,
          headers: { ...bearer(user), 'content-type': 'application/json' },
          payload,
        });
        sent++;
        if (res.statusCode >= 500) {
          failures.push(
            `${res.statusCode} ${op.method} ${url} ${payload.slice(0, 80)} -> ${res.body.slice(0, 200)}`,
          );
        }
      }
    }
  } finally {
    running = false;
    await probe;
  }
  return { failures, slowestHealthMs, sent };
}

/** The server still answers: health, and a list with a fresh token. */
async function expectHealthy(fx: Fixture): Promise<void> {
  const prefix = fx.t.config.API_PREFIX;
  fx.tenant.admin.token = await tokenFor(fx.t.app, fx.tenant.admin);
  const health = await fx.t.app.inject({ method: 'GET', url: `${prefix}/health` });
  expect(health.statusCode).toBe(200);
  const list = await fx.t.app.inject({
    method: 'GET',
    url: `${prefix}/tickets`,
    headers: bearer(fx.tenant.admin),
  });
  expect(list.statusCode).toBe(200);
}

describe('bad input never answers 5xx', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await fixture();
  });
  afterAll(async () => fx?.t.close());

  it('sweeps every operation of the OpenAPI document', { timeout: 600_000 }, async () => {
    const { failures, sent } = await sweep(fx, CASES_PER_OPERATION);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
    await expectHealthy(fx);
  });

  it('answers deep, long and wide JSON bodies without 5xx while /health stays quick', {
    timeout: 300_000,
  }, async () => {
    const { failures, slowestHealthMs, sent } = await shapeSweep(fx);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(200);
    expect(slowestHealthMs).toBeLessThan(HEALTH_BUDGET_MS);
    await expectHealthy(fx);
  });
});

/** How a handshake ended: the server's `ready`, or the connect_error message. */
function handshake(url: string, options: { query?: Record<string, string>; auth?: object }): Promise<string> {
  const socket = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    timeout: 20_000,
    ...options,
  });
  return new Promise<string>((resolve) => {
    socket.once('ready', () => resolve('ready'));
    socket.once('connect_error', (error) => resolve(error.message));
  }).finally(() => socket.close());
}

describe('socket.io handshakes with bad tokens and queries are refused cleanly', () => {
  let fx: Fixture;
  let url: string;
  beforeAll(async () => {
    fx = await fixture();
    url = await listenLocally(fx.t.app);
  });
  afterAll(async () => fx?.t.close());

  it('refuses generated and forged tokens with ERR_SESSION_EXPIRED; a valid one still connects', {
    timeout: 120_000,
  }, async () => {
    const { t, tenant } = fx;
    const valid = await tokenFor(t.app, tenant.agent);
    expect(await handshake(url, { query: { token: valid } })).toBe('ready');

    const [header, payload, signature] = valid.split('.') as [string, string, string];
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const ended = await tokenFor(t.app, tenant.agent);
    await revokeSessions(t.app.ctx.db, { companyId: tenant.companyId, userId: tenant.agent.id });
    tenant.agent.token = await tokenFor(t.app, tenant.agent);
    const forged = [
      '',
      'null',
      'Bearer x',
      `${header}.${payload}`,
      `${header}.${payload}.`,
      `${header}.${payload}.${signature.slice(0, -2)}`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      `${header}.${b64({ ...claims, userId: tenant.admin.id, profile: 'admin' })}.${signature}`,
      `${header}.${b64({ ...claims, companyId: 2_147_483_648 })}.${signature}`,
      await signAccessToken(
        {
          userId: tenant.admin.id,
          companyId: tenant.companyId,
          profile: 'admin',
          super: true,
          sessionId: 'x',
        },
        new TextEncoder().encode('another-secret-another-secret-another-secret'),
        900,
      ),
      await tokenFor(t.app, tenant.agent, -60),
      ended,
      'a\u0000b',
      'x'.repeat(6000),
      ...fc.sample(fc.oneof(fc.string(), fc.base64String(), fc.string({ unit: 'binary' })), {
        seed: SEED,
        numRuns: 24,
      }),
    ];
    const outcomes: string[] = [];
    for (const token of forged) {
      outcomes.push(await handshake(url, { query: { token } }));
      outcomes.push(await handshake(url, { auth: { token } }));
    }
    for (const token of [123, {}, [], null, true, [valid, valid], { token: valid }]) {
      outcomes.push(await handshake(url, { auth: { token } }));
    }
    outcomes.push(await handshake(url, {}));
    expect(new Set(outcomes)).toEqual(new Set(['ERR_SESSION_EXPIRED']));
    // The server still accepts a good token afterwards.
    expect(await handshake(url, { auth: { token: tenant.agent.token } })).toBe('ready');
  });

  it('answers malformed engine.io requests with 4xx, never 5xx', { timeout: 60_000 }, async () => {
    const { tenant } = fx;
    const token = encodeURIComponent(tenant.agent.token);
    const queries = [
      'EIO=4&transport=polling',
      'EIO=5&transport=polling',
      'EIO=abc&transport=polling',
      'EIO=4&transport=flashsocket',
      'EIO=4&transport=polling&sid=unknown',
      `EIO=4&transport=polling&sid=${'x'.repeat(5000)}`,
      'EIO=4&transport=websocket',
      `EIO=4&transport=polling&token=${token}&token=${token}`,
      'EIO=4&transport=polling&token=%00',
      'EIO=4&transport=polling&token=%E0%A4%A',
      '%E0%A4%A',
      '',
    ];
    const statuses: number[] = [];
    for (const query of queries) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await fetch(`${url}/socket.io/?${query}`, {
          method,
          body: method === 'POST' ? '40{"token":1}' : undefined,
          headers: method === 'POST' ? { 'content-type': 'text/plain;charset=UTF-8' } : undefined,
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
    }
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.some((s) => s >= 400)).toBe(true);
    expect((await fetch(`${url}${fx.t.config.API_PREFIX}/health`)).status).toBe(200);
  });
});

describe('bad input never answers 5xx at the root (API_PREFIX empty, the classic client)', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await fixture({ API_PREFIX: '' });
  });
  afterAll(async () => fx?.t.close());

  it('sweeps every operation of the OpenAPI document with fewer cases', { timeout: 600_000 }, async () => {
    expect(fx.t.config.API_PREFIX).toBe('');
    const { failures, sent } = await sweep(fx, CASES_PER_OPERATION_AT_ROOT);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(600);
    await expectHealthy(fx);
  });
});
