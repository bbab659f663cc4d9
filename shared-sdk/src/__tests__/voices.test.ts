import { describe, expect, it } from '@jest/globals';
import { defaultVoiceIds, defaultVoices, type GenderedVoice } from '../voices';

const VOICES: GenderedVoice[] = [
  { voiceId: 'f1', gender: 'female' },
  { voiceId: 'm1', gender: 'male' },
  { voiceId: 'f2', gender: 'female' },
  { voiceId: 'n1', gender: 'neutral' },
];
const GENDERS: Record<string, 'female' | 'male' | null> = {
  沈言: 'male',
  阿瑶: 'female',
  苏晚: 'female',
  顾川: 'male',
  掌柜: null,
  旁白: null,
};
const genderOf = (speaker: string) => GENDERS[speaker];

describe('defaultVoices', () => {
  it('gives each speaker the least used voice of their gender, in speaking order', () => {
    expect(defaultVoices(['沈言', '阿瑶', '苏晚', '顾川'], {}, VOICES, genderOf)).toEqual({
      沈言: { voiceId: 'm1', nth: 0 },
      阿瑶: { voiceId: 'f1', nth: 0 },
      苏晚: { voiceId: 'f2', nth: 0 },
      // One male voice: the second man shares it, as its second user (another speed).
      顾川: { voiceId: 'm1', nth: 1 },
    });
  });

  it('keeps a chosen voice, counts it as used, and alternates only for unknown genders', () => {
    const picked = defaultVoiceIds(
      ['旁白', '阿瑶', '掌柜', '沈言'],
      { 阿瑶: 'f1' },
      VOICES,
      genderOf,
    );
    // 阿瑶 chose f1: 旁白 (unknown) takes the least used of the alternating order (m1),
    // 掌柜 (unknown) the next least used (f2), and 沈言 the male voice, now its second user.
    expect(picked).toEqual({ 阿瑶: 'f1', 旁白: 'm1', 掌柜: 'f2', 沈言: 'm1' });
  });

  it('ignores a chosen voice that is not known and falls back to any voice when a gender has none', () => {
    const onlyFemale = VOICES.filter((voice) => voice.gender === 'female');
    expect(defaultVoiceIds(['沈言', '阿瑶'], { 沈言: 'gone' }, onlyFemale, genderOf)).toEqual({
      沈言: 'f1',
      阿瑶: 'f2',
    });
    expect(defaultVoices(['沈言'], { 沈言: 'provider-x' }, VOICES, genderOf, () => true)).toEqual({
      沈言: { voiceId: 'provider-x', nth: 0 },
    });
    expect(defaultVoices(['沈言'], {}, [], genderOf)).toEqual({});
  });
});
