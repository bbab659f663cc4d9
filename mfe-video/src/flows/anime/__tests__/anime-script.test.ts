import { describe, expect, it } from '@jest/globals';
import { VOICE_VARIANT_SPEEDS, estimateDialogueMs } from '@kol/shared-sdk';
import { estimateScriptMs, parseScriptText, speakerVoices } from '../anime-script';

describe('the anime script’s voices and length', () => {
  it('speaks the narrator with the work’s voice and a shared voice at the server’s variant speed', () => {
    const voices = speakerVoices(
      ['旁白', '阿瑶', '苏晚'],
      { 阿瑶: 'espeak-cmn-m' },
      'espeak-cmn-m',
    );
    expect(voices).toEqual({
      旁白: { voiceId: 'espeak-cmn-m', speedFactor: 1 },
      阿瑶: { voiceId: 'espeak-cmn-m', speedFactor: VOICE_VARIANT_SPEEDS[1] },
    });
  });

  it('estimates each line in its speaker’s voice, a speaker without one by the gender the script gives', () => {
    const lines = parseScriptText(
      [
        '旁白：阿瑶是个十六岁的少女，苏晚是她的表姐。',
        '阿瑶：表姐，我们明天一早就出发，去山那边看看吧。',
        '苏晚：好呀，我们明天一早就出发，去山那边看看吧。',
      ].join('\n'),
    );
    const settings = { voiceId: 'espeak-cmn-f', speed: 1.2 };
    const plain = lines.map((line) => ({
      ...line,
      voiceId: line.speaker === '旁白' ? 'espeak-cmn-f' : null,
    }));
    // Both women get the narrator's female voice (at its second and third speeds), not the
    // male voice an unknown gender would take first.
    const gendered = estimateDialogueMs(plain, { speed: 1.2, genderOf: () => 'female' });
    expect(estimateScriptMs(lines, settings)).toBe(gendered);
    expect(gendered).not.toBe(estimateDialogueMs(plain, { speed: 1.2 }));
    // A chosen voice wins over the default, at the work's speed.
    expect(estimateScriptMs(lines, { ...settings, roleVoices: { 苏晚: 'tts-nova' } })).toBe(
      estimateDialogueMs(
        plain.map((line) => (line.speaker === '苏晚' ? { ...line, voiceId: 'tts-nova' } : line)),
        { speed: 1.2, genderOf: () => 'female' },
      ),
    );
  });
});
