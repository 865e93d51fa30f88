import { describe, expect, it } from 'vitest';
import { ratingAverage } from './review-rules';

describe('ratingAverage', () => {
  it('rounds the integer ratio half up to one decimal', () => {
    expect(ratingAverage(13, 3)).toBe('4.3');
    expect(ratingAverage(9, 2)).toBe('4.5');
    expect(ratingAverage(5, 1)).toBe('5.0');
    expect(ratingAverage(1, 1)).toBe('1.0');
    // 4.25 -> 4.3 (half up), 4.05 -> 4.1
    expect(ratingAverage(17, 4)).toBe('4.3');
    expect(ratingAverage(81, 20)).toBe('4.1');
    expect(ratingAverage(14, 3)).toBe('4.7');
  });
  it('answers null without counted reviews or with bad values', () => {
    expect(ratingAverage(0, 0)).toBeNull();
    expect(ratingAverage(3, -1)).toBeNull();
    expect(ratingAverage(2.5, 1)).toBeNull();
  });
});
