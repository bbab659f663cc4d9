import { describe, expect, it } from '@jest/globals';
import { findFlaggedTerms, vocabularyList } from '../../../src/video/library/vocabulary';

describe('the flagged-word list', () => {
  it('holds a few dozen distinct words, each with a replacement that is not flagged itself', () => {
    const list = vocabularyList();
    expect(list.length).toBeGreaterThanOrEqual(40);
    expect(new Set(list.map((item) => item.word.toLowerCase())).size).toBe(list.length);
    for (const item of list) {
      expect(item.replacement.trim()).not.toBe('');
      expect(findFlaggedTerms(item.replacement)).toEqual([]);
    }
    const words = list.map((item) => item.word);
    expect(words).toEqual(
      expect.arrayContaining(['最好', '第一', '国家级', '100%有效', '加微信', '稳赚不赔', '根治']),
    );
  });
});

describe('findFlaggedTerms', () => {
  it('finds each term with its replacement and where it starts', () => {
    const text = '这款面霜是国家级认证，100%有效，想买的加微信。';
    expect(findFlaggedTerms(text)).toEqual([
      { word: '国家级', replacement: '专业级', index: text.indexOf('国家级') },
      { word: '100%有效', replacement: '效果明显', index: text.indexOf('100%') },
      { word: '加微信', replacement: '关注我', index: text.indexOf('加微信') },
    ]);
  });

  it('prefers the longer term at one position and never reports overlaps', () => {
    expect(findFlaggedTerms('全网第一的好物').map((t) => t.word)).toEqual(['全网第一']);
    expect(findFlaggedTerms('一夜暴富，稳赚不赔').map((t) => t.word)).toEqual([
      '一夜暴富',
      '稳赚不赔',
    ]);
    expect(findFlaggedTerms('稳赚').map((t) => t.word)).toEqual(['稳赚']);
  });

  it('leaves ordinary phrases that only contain a word alone', () => {
    expect(findFlaggedTerms('第一次见面是在第一章的开头，她是我最好的朋友。')).toEqual([]);
    expect(findFlaggedTerms('他拿了第一名')).toEqual([
      { word: '第一', replacement: '领先', index: 3 },
    ]);
  });

  it('matches Latin letters in any case and answers the listed spelling', () => {
    const found = findFlaggedTerms('有问题加Vx或者vx联系，no.1 品质');
    expect(found.map((t) => t.word)).toEqual(['加vx', 'VX', 'NO.1']);
  });

  it('answers nothing for clean text, and finds a term at the end of a long script', () => {
    expect(findFlaggedTerms('')).toEqual([]);
    expect(findFlaggedTerms('从前有座山，山里有座庙。')).toEqual([]);
    const long = '山里有座庙，庙里有个老和尚在讲故事。'.repeat(6000) + '最好';
    expect(findFlaggedTerms(long)).toEqual([
      { word: '最好', replacement: '很好', index: long.length - 2 },
    ]);
  });
});
