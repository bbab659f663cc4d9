import { describe, expect, it } from '@jest/globals';
import { groupSentences, quoteDepthAfter, splitIntoShots, splitSentences } from '../sentences';

describe('shots never cut a quotation', () => {
  it('keeps a quotation of several sentences in one shot', () => {
    const text =
      '天刚亮，林家后院就乱成一团。“林家的废物醒了没有？苏家来退婚了！”门外有人扯着嗓子喊。林默推开房门，只见院中站着一个白衣少女。';
    const shots = splitIntoShots(text);
    expect(shots.some((shot) => shot.includes('林家的废物醒了没有？苏家来退婚了！”'))).toBe(true);
    for (const shot of shots) {
      expect(shot).not.toMatch(/^[”」』’）)》，。！？]/u);
      expect(shot).not.toMatch(/[“「『‘（(《]$/u);
    }
  });

  it('still cuts a long narration into shots of at most three sentences', () => {
    expect(splitIntoShots('一。二。三。四。')).toEqual(['一。二。三。', '四。']);
    const quoted = `“${'说'.repeat(20)}。${'说'.repeat(20)}。${'说'.repeat(20)}。${'说'.repeat(20)}。”`;
    // Four sentences of one speech stay together (under the quoted-shot limit).
    expect(groupSentences(splitSentences(quoted))).toHaveLength(1);
  });

  it('gives a stray closing mark to the sentence before and an opening one to the next', () => {
    expect(splitSentences('“走吧！\n”他说。')).toEqual(['“走吧！”', '他说。']);
    expect(quoteDepthAfter('他说：“走吧。')).toBe(1);
    expect(quoteDepthAfter('”', 1)).toBe(0);
  });
});
