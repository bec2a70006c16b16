import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compiledJsonSerializer, plainJsonSerializer } from './json-serializer.js';

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

describe('compiledJsonSerializer', () => {
  const schema = z.object({
    items: z.array(
      z.object({
        id: z.number(),
        owner: z.object({ id: z.number(), name: z.string() }).nullable(),
        note: z.string().nullable(),
        tags: z.array(z.object({ name: z.string() })),
        done: z.boolean(),
      }),
    ),
    cursor: z.string().optional(),
  });
  const serialize = compiledJsonSerializer(schema)();

  it('writes what JSON.stringify writes, nulls, escapes and optional keys included', () => {
    const answers = [
      {
        items: [
          { id: 1, owner: null, note: null, tags: [], done: false },
          {
            id: 2.5,
            owner: { id: 7, name: 'Zé "da" Silva\\\n\u2028ção 😀' },
            note: '<b>\t</b>',
            tags: [{ name: 'VIP' }, { name: 'Reclamação' }],
            done: true,
          },
        ],
        cursor: '123.4',
      },
      { items: [] },
    ];
    for (const answer of answers) expect(serialize(answer)).toBe(JSON.stringify(answer));
  });

  it('fails under tests on an answer its schema refuses (negative controls)', () => {
    expect(() =>
      serialize({ items: [{ id: '1', owner: null, note: null, tags: [], done: false }] }),
    ).toThrow();
    expect(() => serialize({ items: [{ id: 1, owner: null, tags: [], done: false }] })).toThrow();
  });
});
