import { describe, expect, it } from 'vitest';
import {
  CollectionAmountSchema,
  CollectionCreateRequestSchema,
  CompleteUploadRequestSchema,
  ContentTypeSchema,
  FileNameSchema,
  MarketCollectionsRequestSchema,
  Md5Schema,
} from './collections';

describe('collection and upload schemas', () => {
  it('normalises an MD5 given in hex or base64 to lower-case hex', () => {
    expect(Md5Schema.parse('5D41402ABC4B2A76B9719D911017C592')).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(Md5Schema.parse('XUFAKrxLKna5cZ2REBfFkg==')).toBe('5d41402abc4b2a76b9719d911017c592');
    expect(Md5Schema.safeParse('5d41402abc').success).toBe(false);
    expect(Md5Schema.safeParse('not base64 at all!!!!!==').success).toBe(false);
  });

  it('takes a price as whole points, from a number or a digit string', () => {
    expect(CollectionAmountSchema.parse(25)).toBe(25);
    expect(CollectionAmountSchema.parse(' 25 ')).toBe(25);
    for (const bad of [-1, 1.5, '1.5', '', null, '1e3', 100_000_001])
      expect(CollectionAmountSchema.safeParse(bad).success, String(bad)).toBe(false);
  });

  it('quotes the price limit with thousands separators', () => {
    const tooHigh = CollectionAmountSchema.safeParse(100_000_001);
    expect(tooHigh.error?.issues[0]?.message).toBe('Price must be at most 100,000,000 points');
  });

  it('trims titles, defaults desc and refuses empty titles', () => {
    expect(CollectionCreateRequestSchema.parse({ title: '  Icons ', amount: 1 })).toEqual({
      title: 'Icons',
      desc: '',
      amount: 1,
    });
    expect(CollectionCreateRequestSchema.safeParse({ title: '   ', amount: 1 }).success).toBe(false);
  });

  it('refuses file names with paths or control characters', () => {
    expect(FileNameSchema.parse(' report.pdf ')).toBe('report.pdf');
    for (const bad of ['a/b', 'a\\b', 'a\nb', '', 'x'.repeat(256)])
      expect(FileNameSchema.safeParse(bad).success, bad).toBe(false);
  });

  it('defaults the content type and the parts of a completion', () => {
    expect(ContentTypeSchema.parse('')).toBe('application/octet-stream');
    expect(ContentTypeSchema.parse(undefined)).toBe('application/octet-stream');
    expect(ContentTypeSchema.parse('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(CompleteUploadRequestSchema.parse({ upload_id: '01900000-0000-7000-8000-000000000000' }).parts).toEqual([]);
  });

  it('defaults the market query to the newest first, page 0 of 10', () => {
    expect(MarketCollectionsRequestSchema.parse({})).toEqual({ paginator: { page: 0, size: 10 }, sort: 'newest' });
    expect(MarketCollectionsRequestSchema.safeParse({ sort: 'cheap' }).success).toBe(false);
  });
});
