/**
 * The bounds and examples the OpenAPI document derives from zod's patterns (plugins/openapi-schema.ts):
 * the longest string an anchored pattern allows, a sample it matches, and no bound when there is none.
 */
import { describe, expect, it } from 'vitest';
import { boundSchema, patternMaxLength, patternSample, sampleOf, TEXT_CEILING } from './openapi-schema';

describe('patterns', () => {
  it.each([
    ['^[a-fA-F0-9]{32}$', 32],
    ['^[A-Za-z0-9_]{3,32}$', 32],
    ['^\\d{6}$', 6],
    ['^\\d{1,18}(\\.\\d{1,8})?$', 27],
    ['^(?:ab|cde)$', 3],
  ])('%s matches at most %i characters', (pattern, max) => {
    expect(patternMaxLength(pattern)).toBe(max);
    const sample = patternSample(pattern);
    expect(sample).not.toBeNull();
    expect(new RegExp(pattern).test(sample!)).toBe(true);
  });

  it.each(['^\\d+$', '[a-z]{3}', '^a{2,}$', '^(sandbox|evm)(,(sandbox|evm))*$'])('%s has no bound', (pattern) => {
    expect(patternMaxLength(pattern)).toBeNull();
  });
});

describe('boundSchema and sampleOf', () => {
  it('keeps the schema’s own bounds and fills the missing ones', () => {
    const schema = {
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 100 },
        note: { type: 'string' },
        code: { type: 'string', pattern: '^\\d{6}$' },
        small: { type: 'integer', minimum: 0, maximum: 100 },
        big: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string', enum: ['a'] } },
      },
    };
    boundSchema(schema);
    expect(schema.properties).toMatchObject({
      title: { maxLength: 100 },
      note: { maxLength: TEXT_CEILING },
      code: { maxLength: 6 },
      small: { format: 'int32' },
      big: { minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' },
      tags: { maxItems: 10_000 },
    });
    expect(sampleOf(schema)).toEqual({
      title: 'Watercolour brushes',
      note: 'example',
      code: '123456',
      small: 1,
      big: 1,
      tags: ['a'],
    });
  });
});
