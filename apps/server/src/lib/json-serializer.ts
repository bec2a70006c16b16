import type { z } from 'zod';

const checking = process.env.NODE_ENV === 'test' || process.env.VITEST !== undefined;

/**
 * A route's response serializer that writes `JSON.stringify(data)` without first parsing the answer
 * with its Zod schema (the default serializer's full parse costs about as much as the stringify on a
 * page of 40 tickets). For hot lists whose service builds the answer field by field
 * in the schema's key order. Under tests every answer is also parsed with `schema` and must serialize
 * to the same text (same keys, same order, nothing stripped): a drift between the service and the
 * schema fails the test that sent it (`Error`, a 500 there) instead of going unnoticed.
 */
export function plainJsonSerializer(schema: z.ZodType) {
  return () =>
    (data: unknown): string => {
      const text = JSON.stringify(data);
      if (checking) {
        const parsed = JSON.stringify(schema.parse(data));
        if (parsed !== text) {
          throw new Error(`answer differs from its schema's serialization:\n${text}\n${parsed}`);
        }
      }
      return text;
    };
}
