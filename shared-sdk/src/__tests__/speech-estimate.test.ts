import { describe, expect, it } from '@jest/globals';
import { animeChosenVoices } from '../anime';
import { ProjectType } from '../enums';
import {
  SENTENCE_PAUSE_MS,
  estimateDialogueLinesMs,
  estimateDialogueMs,
  estimateNarrationMs,
  estimateSentenceMs,
  narrationVoiceOf,
  speechEngineOf,
  splitSentences,
} from '../speech-estimate';

/**
 * Whole passages as espeak-ng spoke them in the render (sentence by sentence, 250 ms between),
 * recorded by bench/estimate.mjs's synthesis; the server's speech-estimate test synthesises
 * other passages live. The model must hold within 10 % of each.
 */
const RECORDED: Array<{ voiceId: string; speed: number; text: string; ms: number }> = [
  {
    voiceId: 'espeak-cmn-f',
    speed: 1,
    text: '林家的废物醒了没有？苏家来退婚了！林默睁开眼，只觉得头痛欲裂。',
    ms: 8065,
  },
  {
    voiceId: 'espeak-cmn-f',
    speed: 1,
    text: '三年前，他还是青云城最耀眼的天才，十六岁便踏入了筑气境。可一夜之间，丹田破碎，修为尽失。',
    ms: 11412,
  },
  {
    voiceId: 'espeak-cmn-f',
    speed: 1,
    text: '“你真的要走？”她低声问道。他没有回头，只是轻轻点了点头。',
    ms: 7687,
  },
  {
    voiceId: 'espeak-cmn-f',
    speed: 1.5,
    text: '雨下了整整一夜。清晨，客栈的老板推开门，发现门口躺着一个浑身是血的少年。',
    ms: 5890,
  },
  {
    voiceId: 'espeak-en-us-f',
    speed: 1,
    text: 'The letter arrived twenty years late. The envelope was yellow, but the handwriting was still clear.',
    ms: 6171,
  },
  {
    voiceId: 'espeak-en-us-f',
    speed: 1,
    text: 'It rained all night. In the morning, the innkeeper found a boy lying at the door, covered in blood.',
    ms: 6349,
  },
  // An English voice reading Chinese (overseas decompression with a Chinese text): slow.
  {
    voiceId: 'espeak-en-us-f',
    speed: 1,
    text: '“你真的要走？”她低声问道。他没有回头，只是轻轻点了点头。',
    ms: 16802,
  },
];

describe('the speech estimate', () => {
  it.each(RECORDED)(
    'holds within 10 % of espeak ($voiceId at $speed×)',
    ({ voiceId, speed, text, ms }) => {
      const estimate = estimateNarrationMs(text, { voiceId, speed });
      expect(Math.abs(estimate - ms) / ms).toBeLessThan(0.1);
    },
  );

  it('is the sentences plus the pause between them, longer for slower speech', () => {
    const sentences = splitSentences('你好。今天天气很好！');
    expect(sentences).toEqual(['你好。', '今天天气很好！']);
    const each = sentences.reduce((sum, s) => sum + estimateSentenceMs(s), 0);
    expect(estimateNarrationMs(sentences)).toBe(Math.round(each + SENTENCE_PAUSE_MS));
    expect(estimateNarrationMs('你好。', { speed: 0.5 })).toBeGreaterThan(
      estimateNarrationMs('你好。', { speed: 2 }),
    );
    // Out-of-range speeds are clamped as the engines clamp them.
    expect(estimateNarrationMs('你好。', { speed: 5 })).toBe(
      estimateNarrationMs('你好。', { speed: 2 }),
    );
    expect(estimateNarrationMs('……')).toBe(0);
  });

  it('speaks with the type default voice: English overseas, Mandarin otherwise', () => {
    expect(narrationVoiceOf(ProjectType.decompressionOverseas)).toBe('espeak-en-us-f');
    expect(narrationVoiceOf(ProjectType.comics)).toBe('espeak-cmn-f');
    expect(narrationVoiceOf(ProjectType.comics, 'tts-alloy')).toBe('tts-alloy');
    expect(speechEngineOf('espeak-cmn-m')).toBe('offline-zh');
    expect(speechEngineOf('espeak-en-us-m')).toBe('offline-en');
    expect(speechEngineOf('tts-alloy')).toBe('provider');
  });

  it('gives a third speaker on a voice its speed variant, as the server assigns voices', () => {
    const line = '我们明天一早就出发，去山那边看看。';
    const lines = ['甲', '乙', '丙'].map((speaker) => ({ speaker, text: line }));
    const [first = 0, second = 0, third = 0] = estimateDialogueLinesMs(lines);
    // 甲 and 乙 get the two Mandarin voices at speed 1; 丙 the first voice again, 1.15× faster.
    expect(first).toBe(second);
    expect(third).toBeLessThan(first * 0.9);
    expect(estimateDialogueMs(lines)).toBe(first + second + third - SENTENCE_PAUSE_MS);
    // A chosen voice is taken before the defaults (as assignVoices does): 乙 chose the female
    // voice, so 甲 gets the male one, both at speed 1.
    const chosen = estimateDialogueLinesMs([
      { speaker: '甲', text: line },
      { speaker: '乙', text: line, voiceId: 'espeak-cmn-f' },
    ]);
    expect(chosen[1]).toBe(first);
    expect(chosen[0]).toBe(first);
  });

  it('gives a speaker without a voice the default of their gender, as the server does', () => {
    const line = '我们明天一早就出发，去山那边看看。';
    const lines = ['阿瑶', '苏晚'].map((speaker) => ({ speaker, text: line }));
    const [alone = 0, other = 0] = estimateDialogueLinesMs(lines);
    // Unknown genders alternate the two voices, both at speed 1.
    expect(other).toBe(alone);
    // Two women share the one female voice: the second speaks it 1.15× faster.
    const women = estimateDialogueLinesMs(lines, { genderOf: () => 'female' });
    expect(women[0]).toBe(alone);
    expect(women[1]).toBeLessThan(alone * 0.9);
  });

  it('speaks the anime narrator with the work’s voice unless it was given its own', () => {
    expect(animeChosenVoices({ voiceId: 'espeak-cmn-m', roleVoices: { 阿瑶: 'tts-a' } })).toEqual({
      阿瑶: 'tts-a',
      旁白: 'espeak-cmn-m',
    });
    expect(animeChosenVoices({ voiceId: 'espeak-cmn-m', roleVoices: { 旁白: 'tts-b' } })).toEqual({
      旁白: 'tts-b',
    });
    expect(animeChosenVoices({})).toEqual({});
  });
});
