/** The page schema and paging fields shared by every paged answer (product §3 Pagination). */
import { describe, expect, it } from 'vitest';
import {
  CollectionPageSchema,
  MyOrdersDataSchema,
  MyPurchasedCollectionsDataSchema,
  UserCollectionsDataSchema,
} from './collections';
import { pageFields, pageOf, PageFieldsSchema } from './common';
import { RecordListDataSchema } from './records';

describe('pageFields', () => {
  it('gives page (0-based), size, totalCount, totalPages, hasNextPage and count', () => {
    expect(pageFields({ page: 0, size: 10 }, 23)).toEqual({
      page: 0,
      size: 10,
      totalCount: 23,
      totalPages: 3,
      hasNextPage: true,
      count: 23,
    });
    expect(pageFields({ page: 1, size: 10 }, 23)).toMatchObject({ totalPages: 3, hasNextPage: true });
    expect(pageFields({ page: 2, size: 10 }, 23)).toMatchObject({ totalPages: 3, hasNextPage: false });
  });

  it('has no next page on an exact last page, past the end, or with no items', () => {
    expect(pageFields({ page: 1, size: 10 }, 20)).toMatchObject({ totalPages: 2, hasNextPage: false });
    expect(pageFields({ page: 7, size: 10 }, 20)).toMatchObject({ page: 7, totalPages: 2, hasNextPage: false });
    expect(pageFields({ page: 0, size: 10 }, 0)).toMatchObject({ totalCount: 0, totalPages: 0, hasNextPage: false, count: 0 });
  });

  it('clamps a negative total to 0', () => {
    expect(pageFields({ page: 0, size: 5 }, -1)).toMatchObject({ totalCount: 0, count: 0, totalPages: 0 });
  });
});

describe('pageOf', () => {
  it('builds {<items>, ...paging fields} and requires every paging field', () => {
    const Schema = pageOf('things', PageFieldsSchema.pick({ page: true }));
    const good = { things: [{ page: 1 }], ...pageFields({ page: 0, size: 1 }, 1) };
    expect(Schema.parse(good)).toEqual(good);
    for (const field of ['page', 'size', 'totalCount', 'totalPages', 'hasNextPage', 'count'] as const) {
      const { [field]: _dropped, ...rest } = good;
      expect(Schema.safeParse(rest).success, field).toBe(false);
    }
  });

  it('is the schema of every paged answer', () => {
    const fields = Object.keys(PageFieldsSchema.shape).sort();
    const pages: [string, { shape: object }][] = [
      ['collections', CollectionPageSchema],
      ['collections', UserCollectionsDataSchema],
      ['collections', MyPurchasedCollectionsDataSchema],
      ['orders', MyOrdersDataSchema],
      ['records', RecordListDataSchema],
    ];
    for (const [items, schema] of pages) expect(Object.keys(schema.shape).sort()).toEqual([...fields, items].sort());
  });
});
