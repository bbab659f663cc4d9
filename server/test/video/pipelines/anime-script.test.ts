import { describe, expect, it } from '@jest/globals';
import {
  NARRATOR,
  parseScript,
  scriptFromStory,
  storyboardFromScript,
} from '../../../src/video/pipelines/anime/script';

describe('anime script, offline', () => {
  it('reads a text already in 「角色：台词」 form', () => {
    expect(parseScript('林舟：你来了。\n阿青：嗯。\n雨下得很大。')).toEqual([
      { speaker: '林舟', text: '你来了。' },
      { speaker: '阿青', text: '嗯。' },
      { speaker: NARRATOR, text: '雨下得很大。' },
    ]);
    expect(parseScript('从前有座山。\n山里有座庙。')).toBeNull();
  });

  it('adapts a story: quoted speech to its speaker, the rest to the narrator', () => {
    const lines = scriptFromStory(
      '夜里，林舟走进客栈。林舟低声说：“掌柜，还有房吗？”\n“只剩一间。”掌柜道。他点点头。\n“那就这间。”',
    );
    expect(lines).toEqual([
      { speaker: NARRATOR, text: '夜里，林舟走进客栈。' },
      { speaker: '林舟', text: '掌柜，还有房吗？' },
      { speaker: '掌柜', text: '只剩一间。' },
      { speaker: NARRATOR, text: '他点点头。' },
      // No name said: the last speaker.
      { speaker: '林舟', text: '那就这间。' },
    ]);
  });

  it('storyboards one shot per line: wide first, close on speakers, scene carried', () => {
    const shots = storyboardFromScript([
      { speaker: NARRATOR, text: '林舟走进客栈。' },
      { speaker: '林舟', text: '有房吗？' },
      { speaker: '掌柜', text: '有。' },
      { speaker: NARRATOR, text: '雨停了。' },
    ]);
    expect(shots.map((s) => s.camera)).toEqual(['远景', '近景', '特写', '全景']);
    expect(shots.every((s) => s.scene === '客栈')).toBe(true);
    expect(shots[1]?.imagePrompt).toBe('客栈，近景，林舟：有房吗？');
  });
});
