import { describe, expect, it } from '@jest/globals';
import { assignVoices, speakerGenders } from '../../../src/video/pipelines/kit/dialogue';

const known = (voiceId: string) => voiceId.startsWith('espeak-');

describe('assignVoices by gender', () => {
  it('gives a man a male voice and a woman a female one whatever their order', () => {
    const genders = { 沈言: 'male', 阿瑶: 'female' } as const;
    const voices = assignVoices(['沈言', '阿瑶'], {}, known, (s) => genders[s as '沈言']);
    expect(voices).toEqual({
      沈言: { voiceId: 'espeak-cmn-m', speedFactor: 1 },
      阿瑶: { voiceId: 'espeak-cmn-f', speedFactor: 1 },
    });
  });

  it('tells apart two roles of one gender by speed, and alternates only unknown genders', () => {
    const genders: Record<string, 'female' | 'male' | null> = {
      阿瑶: 'female',
      苏晚: 'female',
      旁白: null,
      掌柜: null,
    };
    const voices = assignVoices(['旁白', '阿瑶', '苏晚', '掌柜'], {}, known, (s) => genders[s]);
    expect(voices['阿瑶']?.voiceId).toBe('espeak-cmn-f');
    expect(voices['苏晚']?.voiceId).toBe('espeak-cmn-f');
    expect(voices['苏晚']?.speedFactor).not.toBe(voices['阿瑶']?.speedFactor);
    // 旁白 came first: the first of the alternating order; 掌柜 the least used then (male).
    expect(voices['旁白']?.voiceId).toBe('espeak-cmn-f');
    expect(voices['掌柜']?.voiceId).toBe('espeak-cmn-m');
    const distinct = new Set(Object.values(voices).map((v) => `${v.voiceId}@${v.speedFactor}`));
    expect(distinct.size).toBe(4);
  });

  it('keeps a chosen voice, even against the gender', () => {
    const voices = assignVoices(['沈言'], { 沈言: 'espeak-cmn-f' }, known, () => 'male');
    expect(voices['沈言']).toEqual({ voiceId: 'espeak-cmn-f', speedFactor: 1 });
  });
});

describe('speakerGenders', () => {
  it('takes the role’s gender by name, else what the story says of the speaker', () => {
    const text = '书生沈言推开门。阿瑶姑娘端着药碗进来，青崖跟在后面。';
    const genderOf = speakerGenders(
      ['沈言', '阿瑶', '青崖', '旁白'],
      // The creator set 青崖 to 未知 on the role: that is kept, not guessed over.
      [
        { name: '沈言', gender: 'male' },
        { name: '青崖', gender: null },
      ],
      text,
    );
    expect(['沈言', '阿瑶', '青崖', '旁白'].map(genderOf)).toEqual(['male', 'female', null, null]);
  });
});
