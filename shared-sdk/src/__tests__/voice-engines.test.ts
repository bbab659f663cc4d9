import { describe, expect, it } from '@jest/globals';
import { speechEngineWords, voiceEngineNote } from '../voice-engines';

describe('the line that says which engine speaks the voices', () => {
  it('names espeak-ng offline, the speech service when configured, and both when mixed', () => {
    expect(voiceEngineNote([])).toBeNull();
    expect(
      voiceEngineNote([{ engine: 'espeak-ng（离线）' }, { engine: 'espeak-ng（离线）' }]),
    ).toBe('当前语音由离线引擎 espeak-ng 合成，声音较机械；配置语音服务后可使用自然人声');
    expect(voiceEngineNote([{ engine: 'tts-1（api.openai.com）' }])).toBe(
      '当前语音由语音服务 tts-1（api.openai.com） 合成',
    );
    expect(
      voiceEngineNote([{ engine: 'tts-1（api.openai.com）' }, { engine: 'espeak-ng（离线）' }]),
    ).toContain('espeak-ng 合成，声音较机械');
  });
});

describe('the engine of a speech in plain words', () => {
  it('says offline or service, both for a long speech partly fallen back, nothing when not told', () => {
    expect(speechEngineWords('espeak-ng（离线）')).toBe('离线合成');
    expect(speechEngineWords('tts-1（api.openai.com）')).toBe('语音服务合成');
    expect(speechEngineWords('tts-1（api.openai.com）、espeak-ng（离线）')).toBe(
      '语音服务合成（部分离线合成）',
    );
    expect(speechEngineWords('')).toBeNull();
  });
});
