import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { plainJsonSerializer } from './json-serializer.js';

describe('plainJsonSerializer', () => {
  const serialize = plainJsonSerializer(z.object({ a: z.number(), b: z.string().nullable() }))();

  it('writes the answer as JSON.stringify does when it matches its schema', () => {
    expect(serialize({ a: 1, b: null })).toBe('{"a":1,"b":null}');
  });

  it('fails under tests on an answer its schema would serialize otherwise (negative controls)', () => {
    expect(() => serialize({ b: 'x', a: 1 })).toThrow(/differs/); // key order
    expect(() => serialize({ a: 1, b: null, extra: true })).toThrow(/differs/); // a field the schema strips
    expect(() => serialize({ a: '1', b: null })).toThrow(); // a wrong type
  });
});
