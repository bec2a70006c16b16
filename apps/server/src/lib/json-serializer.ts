import fastJson from 'fast-json-stringify';
import { z } from 'zod';

const checking = process.env.NODE_ENV === 'test' || process.env.VITEST !== undefined;

/**
 * Under tests, every answer is also parsed with `schema` and must serialize to the same text (same
 * keys, same order, nothing stripped): a drift between the service and the schema fails the test that
 * sent it (`Error`, a 500 there) instead of going unnoticed.
 */
function checked(schema: z.ZodType, write: (data: unknown) => string) {
  if (!checking) return write;
  return (data: unknown): string => {
    const text = write(data);
    const parsed = JSON.stringify(schema.parse(data));
    if (parsed !== text) {
      throw new Error(`answer differs from its schema's serialization:\n${text}\n${parsed}`);
    }
    return text;
  };
}

/**
 * A route's response serializer that writes `JSON.stringify(data)` without first parsing the answer
 * with its Zod schema (the default serializer's full parse costs about as much as the stringify on a
 * page of 40 tickets). For hot answers whose service builds them field by field in the schema's key
 * order. Checked under tests (see `checked`).
 */
export function plainJsonSerializer(schema: z.ZodType) {
  return () => checked(schema, (data) => JSON.stringify(data));
}

/** JSON Schema node as z.toJSONSchema writes it (the parts rewritten here). */
type JsonSchemaNode = { [key: string]: unknown };

/**
 * `anyOf: [X, {type: 'null'}]` (Zod's nullable) as X with `nullable: true`, which fast-json-stringify
 * writes directly instead of choosing the branch with a validator on every value.
 */
function nullableInPlace(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableInPlace);
  if (!node || typeof node !== 'object') return node;
  const anyOf = (node as JsonSchemaNode).anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const others = anyOf.filter((branch: JsonSchemaNode) => branch.type !== 'null');
    if (others.length === 1) return { ...(nullableInPlace(others[0]) as JsonSchemaNode), nullable: true };
  }
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, nullableInPlace(value)]));
}

/**
 * A route's response serializer compiled once from its Zod schema (output side, as JSON Schema) by
 * fast-json-stringify: the answer is written field by field in the schema's order, without a Zod parse
 * and without JSON.stringify's walk of an unknown shape. Keys the schema does not name are left out,
 * as Zod strips them. For hot lists whose service builds the answer in the schema's shape; checked
 * under tests like `plainJsonSerializer`. @throws at compile time on a schema JSON Schema cannot
 * express (transforms, custom types).
 */
export function compiledJsonSerializer(schema: z.ZodType) {
  const json = nullableInPlace(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' })) as JsonSchemaNode;
  delete json.$schema;
  const write = fastJson(json);
  return () => checked(schema, write as (data: unknown) => string);
}
