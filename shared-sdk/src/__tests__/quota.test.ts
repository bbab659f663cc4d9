import { describe, expect, it } from '@jest/globals';
import { QUOTA_TYPES, QUOTA_TYPE_OF_PROJECT, SPENT_QUOTA_TYPES } from '../quota';

describe('quota kinds a page spends', () => {
  it('leaves out 搜索视频, which no video type spends, and keeps the other kinds in order', () => {
    expect(SPENT_QUOTA_TYPES).toEqual([
      'comics',
      'comicsOverseas',
      'decompression',
      'decompressionOverseas',
      'scroll',
      'convert',
      'market',
      'realOpera',
    ]);
    // The answer of get_user_limit_info still carries every kind, search video included.
    expect(QUOTA_TYPES).toContain('searchVideo');
    for (const type of Object.values(QUOTA_TYPE_OF_PROJECT)) {
      expect(SPENT_QUOTA_TYPES).toContain(type);
    }
  });
});
