import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  OFFLINE_ZH_VOICES,
  VOICE_VARIANT_SPEEDS,
  estimateDialogueMs,
  estimateNarrationMs,
  splitSentences,
} from '@kol/shared-sdk/contracts';
import { listVoices, synthesizeSentences } from '../../src/providers/speech/espeak';
import { speakSentences } from '../../src/providers/speech';
import { assignVoices, speakDialogue } from '../../src/video/pipelines/kit/dialogue';

/**
 * The length the pages promise is the length the render makes: passages not used to fit the
 * model (bench/lib/estimate-texts.mjs holds those), spoken by real espeak-ng as the render
 * speaks them, against the SDK's estimate. One synthesis per voice keeps it to a few seconds.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'kol-estimate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ZH =
  '她推开那扇斑驳的木门，院子里的桂花开得正好。“你回来了？”母亲从厨房探出头，手里还拿着锅铲。' +
  '整整十年，她第一次觉得，这个家还在等她。手机响了，是公司发来的消息：明早9点，准时开会。';
const EN =
  'The train was late again, so she walked the last two miles in the rain. ' +
  'Her brother opened the door, smiling: "You made it!" Nobody had told him about the letter.';

const within = (estimate: number, actual: number) => Math.abs(estimate - actual) / actual;

describe('the speech estimate against espeak-ng', () => {
  it.each([
    ['espeak-cmn-f', 1, 'Chinese', ZH],
    ['espeak-cmn-m', 1.3, 'Chinese', ZH],
    ['espeak-en-us-f', 1, 'English', EN],
    ['espeak-en-us-m', 0.8, 'English', EN],
    // Overseas decompression keeps a Chinese text and speaks it with the English voice.
    ['espeak-en-us-f', 1, 'Chinese', ZH.slice(0, 31)],
  ] as const)('holds within 10 %% for %s at %s× on %s', async (voiceId, speed, _lang, text) => {
    const sentences = splitSentences(text);
    const spoken = await synthesizeSentences(sentences, path.join(dir, `${voiceId}.wav`), {
      voiceId,
      speed,
    });
    expect(within(estimateNarrationMs(text, { voiceId, speed }), spoken.durationMs)).toBeLessThan(
      0.1,
    );
  });

  it('holds within 10 % for a drama of three speakers, the third on a speed variant', async () => {
    const lines = [
      { speaker: '陆川', text: '今晚的月亮，好像比往年都圆。' },
      { speaker: '苏晚', text: '你又在说傻话了，快进屋吧，外面风大。' },
      { speaker: '店小二', text: '二位客官，酒菜都备好了，趁热吃吧！' },
      { speaker: '陆川', text: '多谢。小二，再来一壶桂花酒。' },
    ];
    const speakers = [...new Set(lines.map((line) => line.speaker))];
    const voices = assignVoices(speakers, {}, () => true);
    // The SDK's variants are the server's: the third speaker reuses a voice at the next one.
    expect(voices['店小二']?.speedFactor).toBe(VOICE_VARIANT_SPEEDS[1]);
    const order = lines.flatMap((line) =>
      splitSentences(line.text).map((text) => ({ speaker: line.speaker, text })),
    );
    const spoken = await speakDialogue(order, voices, path.join(dir, 'drama.wav'), {
      speed: 1,
      signal: new AbortController().signal,
      speech: {
        speak: (sentences, file, options) => speakSentences(sentences, file, options),
      } as Parameters<typeof speakDialogue>[3]['speech'],
      caption: (line) => line.text,
    });
    expect(within(estimateDialogueMs(lines, { speed: 1 }), spoken.durationMs)).toBeLessThan(0.1);
  });

  it('keeps the speed variants of the SDK and the dialogue voices equal', () => {
    // Two Mandarin voices: speakers 1-2 at the first variant, 3-4 the second, and so on.
    const speakers = Array.from({ length: VOICE_VARIANT_SPEEDS.length * 2 }, (_, i) => `角色${i}`);
    const voices = assignVoices(speakers, {}, () => true);
    const factors = speakers.filter((_, i) => i % 2 === 0).map((s) => voices[s]?.speedFactor);
    expect(factors).toEqual([...VOICE_VARIANT_SPEEDS]);
  });

  it('keeps the SDK’s offline Mandarin voices those of the engine, in its order', () => {
    // The estimate of a speaker without a voice takes the default of their gender from these.
    const engine = listVoices()
      .filter((voice) => voice.language === 'zh')
      .map(({ voiceId, gender }) => ({ voiceId, gender }));
    expect(engine).toEqual([...OFFLINE_ZH_VOICES]);
  });
});
