import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { literals, Nullable, strictDeep } from '../src/typebox.js';

describe('strictDeep', () => {
  const loose = Type.Object({
    a: Type.Optional(Nullable(Type.String())),
    nested: Type.Object({ b: Type.Optional(Type.Boolean()) }),
    list: Type.Array(Type.Object({ c: Type.Optional(Type.Number()) })),
  });
  const strict = strictDeep(loose);

  it('requires every property at every depth, arrays included', () => {
    expect(Value.Check(strict, { a: null, nested: { b: true }, list: [{ c: 1 }] })).toBe(true);
    expect(Value.Check(strict, { nested: { b: true }, list: [] })).toBe(false);
    expect(Value.Check(strict, { a: 'x', nested: {}, list: [] })).toBe(false);
    expect(Value.Check(strict, { a: 'x', nested: { b: true }, list: [{}] })).toBe(false);
  });

  it('refuses properties the schema does not name, at every depth', () => {
    expect(Value.Check(strict, { a: 'x', nested: { b: true, z: 1 }, list: [] })).toBe(false);
    expect(Value.Check(strict, { a: 'x', nested: { b: true }, list: [], z: 1 })).toBe(false);
  });

  it('leaves the source schema as it was', () => {
    expect(Value.Check(loose, { nested: {}, list: [{}] })).toBe(true);
  });
});

describe('literals', () => {
  it('is a string enum with type string, and a description only when given', () => {
    expect(JSON.parse(JSON.stringify(literals(['a', 'b'])))).toEqual({ enum: ['a', 'b'], type: 'string' });
    expect(JSON.parse(JSON.stringify(literals(['a'], 'd')))).toEqual({ enum: ['a'], type: 'string', description: 'd' });
  });
});
