import { describe, expect, it } from '@jest/globals';
import type { Voice } from '@kol/shared-sdk';
import { demoWorkDetail } from '../../../testing/fixtures';
import { demoScene } from '../../../testing/opera';
import {
  assignDefaultVoices,
  draftFor,
  draftOfWork,
  emptyDraft,
  newLine,
  newScene,
  parseScript,
  scriptGenders,
  scriptText,
  speakersOf,
} from '../opera-flow';

const voice = (voiceId: string, gender: Voice['gender'], language: Voice['language'] = 'zh') =>
  ({
    voiceId,
    name: voiceId,
    language,
    gender,
    engine: 'espeak-ng（离线）',
    sampleUrl: '',
  }) as Voice;

const lines = (scenes: ReturnType<typeof parseScript>) =>
  scenes.map((scene) => scene.lines.map((line) => [line.speaker, line.text]));

describe('the drama’s script as the work’s text', () => {
  it('writes 「角色：台词」 lines, a blank line between scenes, and reads them back', () => {
    const scenes = [
      demoScene('a', [
        ['小明', '你好。'],
        ['小红', '今天\n天气不错。'],
      ]),
      demoScene('b', [['小明', '走吧。']]),
    ];
    const text = scriptText(scenes);
    expect(text).toBe('小明：你好。\n小红：今天 天气不错。\n\n小明：走吧。');
    expect(lines(parseScript(text))).toEqual([
      [
        ['小明', '你好。'],
        ['小红', '今天 天气不错。'],
      ],
      [['小明', '走吧。']],
    ]);
  });

  it('leaves out empty lines and scenes, and reads a title as no script', () => {
    expect(scriptText([demoScene('a', [['', '']]), demoScene('b', [['甲', '好。']])])).toBe(
      '甲：好。',
    );
    expect(parseScript('未命名短剧')).toEqual([]);
    // A half-width colon and spaces are read too; the words keep their own colons.
    expect(lines(parseScript(' 旁白 : 他说：来。\r\n\r\n'))).toEqual([[['旁白', '他说：来。']]]);
  });

  it('lists the speakers in the order they first speak', () => {
    expect(
      speakersOf([
        demoScene('a', [
          ['乙', '1。'],
          [' 甲 ', '2。'],
        ]),
        demoScene('b', [
          ['甲', '3。'],
          ['丙', '4。'],
        ]),
      ]),
    ).toEqual(['乙', '甲', '丙']);
  });
});

describe('the draft a page opens with', () => {
  it('takes up an unsaved draft, starts a new drama after a saved one, and asks the server for another work', () => {
    const unsaved = { ...emptyDraft(), title: '半成品' };
    expect(draftFor(null, unsaved)).toBe(unsaved);
    const saved = { ...emptyDraft({ aspect: '16:9', captionStyle: 'box' }), workId: 4 };
    const fresh = draftFor(null, saved);
    expect(fresh).toMatchObject({ workId: null, title: '', settings: { aspect: '16:9' } });
    expect(fresh?.scenes).toHaveLength(1);
    expect(draftFor(4, saved)).toBe(saved);
    expect(draftFor(5, saved)).toBeNull();
    expect(draftFor(5, null)).toBeNull();
  });

  it('rebuilds a work: the script from its text, each scene’s media from the saved scenes', () => {
    const draft = draftOfWork(
      demoWorkDetail(9, {
        type: 8,
        title: '剧',
        text: '甲：一。\n\n乙：二。',
        settings: {
          aspect: '9:16',
          roleVoices: { 甲: 'v1' },
          scenes: [{ mediaUrl: '/uploads/a.webp', lines: [{ speaker: '甲', text: '一。' }] }],
        },
      }),
    );
    expect(draft).toMatchObject({
      workId: 9,
      title: '剧',
      settings: { aspect: '9:16', captionStyle: 'classic', speed: 1, roleVoices: { 甲: 'v1' } },
    });
    expect(draft.scenes.map((s) => [s.mediaUrl, s.mediaKind])).toEqual([
      ['/uploads/a.webp', 'image'],
      ['', ''],
    ]);
  });
});

describe('default voices', () => {
  const voices = [
    voice('f1', 'female'),
    voice('f2', 'female'),
    voice('m1', 'male'),
    voice('en', 'female', 'en'),
  ];

  it('alternates female and male voices as the server does, the least used first', () => {
    expect(assignDefaultVoices(['甲', '乙', '丙', '丁'], {}, voices)).toEqual({
      甲: 'f1',
      乙: 'm1',
      丙: 'f2',
      丁: 'f1',
    });
  });

  it('gives each character a voice of the gender the script says, as the server does', () => {
    const scenes = [
      newScene([
        newLine('阿瑶', '沈公子，药熬好了。他今天不会来了。'),
        newLine('沈言', '多谢阿瑶姑娘。'),
      ]),
    ];
    const genderOf = scriptGenders(scenes);
    // 他 in 阿瑶's line is her speech about someone else, not her.
    expect(['阿瑶', '沈言'].map(genderOf)).toEqual(['female', 'male']);
    expect(assignDefaultVoices(['沈言', '阿瑶'], {}, voices, genderOf)).toEqual({
      沈言: 'm1',
      阿瑶: 'f1',
    });
  });

  it('keeps a known choice and replaces an unknown one', () => {
    expect(assignDefaultVoices(['甲', '乙'], { 甲: 'm1', 乙: 'gone' }, voices)).toEqual({
      甲: 'm1',
      乙: 'f1',
    });
  });
});
