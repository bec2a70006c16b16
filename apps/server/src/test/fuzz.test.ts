/**
 * Bad input never answers 5xx. Every operation of the OpenAPI document is called with generated
 * bad path ids, queries and bodies (schema-aware edge values: ids past int4, NUL bytes, huge and
 * empty strings, wrong types), with raw bodies that are not JSON and with `multipart/form-data`
 * lacking its boundary. A fixed seed keeps the cases the same on every run; a new route joins the
 * sweep by being in the document. Afterwards the server still answers.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tags } from '../db/schema/index.js';
import {
  bearer,
  createCompany,
  createSimulatorConnection,
  createTenant,
  createUser,
  customerNumber,
  injectMessage,
  type TenantFixture,
  type TestUser,
  tokenFor,
} from './factories.js';
import { createTestApp, type TestApp } from './test-app.js';

/** Cases per operation; with ~80 operations and three kinds of case this is a few thousand requests. */
const CASES_PER_OPERATION = 32;
const SEED = 20_261_123;

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

let t: TestApp;
let tenant: TenantFixture;
let superUser: TestUser;
/** Ids of company A's records: path ids that reach deep into the handlers. */
let realIds: number[];

beforeAll(async () => {
  t = await createTestApp({ LOGIN_RATE_MAX: '100000' });
  tenant = await createTenant(t.app);
  superUser = await createUser(t.app, await createCompany(t.app), { profile: 'admin', super: true });
  const whatsappId = await createSimulatorConnection(t.app, tenant.admin);
  const inbound = await injectMessage(t.app, tenant.admin, whatsappId, {
    from: customerNumber(),
    body: 'oi',
  });
  const [tag] = await t.app.ctx.db
    .insert(tags)
    .values({ companyId: tenant.companyId, name: 'Fuzz' })
    .returning({ id: tags.id });
  realIds = [
    ...new Set([whatsappId, inbound.ticketId, inbound.id, tag!.id, tenant.queueId, tenant.agent.id]),
  ].filter((id) => id !== tenant.admin.id);
});
afterAll(async () => t?.close());

describe('bad input never answers 5xx', () => {
  it('sweeps every operation of the OpenAPI document', { timeout: 600_000 }, async () => {
    const operations = operationsOf(t.app.swagger() as never).filter(
      (op) => !op.path.startsWith('/api/docs') && op.method !== 'HEAD',
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
        op.path.startsWith('/api/companies') || op.path.startsWith('/api/plans') ? superUser : tenant.admin;
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
      const cases = fc.sample(caseArb, { seed: SEED + index, numRuns: CASES_PER_OPERATION });
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
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(2000);
    tenant.admin.token = await tokenFor(t.app, tenant.admin);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const list = await t.app.inject({ method: 'GET', url: '/api/tickets', headers: bearer(tenant.admin) });
    expect(list.statusCode).toBe(200);
  });
});
