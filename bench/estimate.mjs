// The length estimate the pages show (the SDK's speech model) against real espeak-ng synthesis,
// spoken as the render speaks (sentence by sentence, the sentence pause between): per voice and
// speed, every passage of bench/lib/estimate-texts.mjs, the mean and max error of the estimate,
// and the same for the per-page rate the pages used before (4.2 CJK characters or 2.6 words a
// second, one pause a sentence), which is where the closing note's figures come from. Then a
// drama of three speakers (the speed variant of a voice used twice).
// Usage: node bench/estimate.mjs [--voices espeak-cmn-f,espeak-en-us-f] [--speeds 1,1.5]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { EN_PASSAGES, ZH_PASSAGES } from './lib/estimate-texts.mjs';

import { loadTs, root } from './lib/typescript.mjs';
process.chdir(root);
const load = loadTs;

const { values } = parseArgs({
  options: {
    voices: { type: 'string', default: 'espeak-cmn-f,espeak-cmn-m,espeak-en-us-f,espeak-en-us-m' },
    speeds: { type: 'string', default: '1,1.5,0.7' },
  },
});

const { estimateNarrationMs, estimateDialogueMs, splitSentences, SENTENCE_PAUSE_MS } = await load(
  'shared-sdk/src/speech-estimate.ts',
);
const { synthesizeSentences } = await load('server/src/providers/speech/espeak.ts');
const { speakSentences } = await load('server/src/providers/speech/index.ts');
const { assignVoices, speakDialogue } = await load('server/src/video/pipelines/kit/dialogue.ts');

/** The estimate the pages had before (mfe-video/src/lib/shots.ts, until this model). */
function oldEstimateMs(text, speed) {
  const CJK = /[\u3400-\u9fff\uf900-\ufaff]/g;
  const cjk = text.match(CJK)?.length ?? 0;
  const words = text.replace(CJK, ' ').match(/[A-Za-z0-9]+(?:['’-][A-Za-z0-9]+)*/g)?.length ?? 0;
  const sentences = Math.max(1, splitSentences(text).length);
  return Math.round(((cjk / 4.2 + words / 2.6) * 1000) / speed + sentences * SENTENCE_PAUSE_MS);
}

const dir = await mkdtemp(path.join(os.tmpdir(), 'kol-bench-estimate-'));
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const summary = (errors) => ({
  mean: errors.reduce((sum, e) => sum + Math.abs(e), 0) / errors.length,
  max: Math.max(...errors.map(Math.abs)),
});

try {
  const speeds = values.speeds.split(',').map(Number);
  for (const voiceId of values.voices.split(',')) {
    const english = voiceId.startsWith('espeak-en');
    // An English voice also reads Chinese: overseas decompression keeps a Chinese narration.
    const sets = english
      ? [
          ['en', EN_PASSAGES],
          ['zh', ZH_PASSAGES.slice(0, 6)],
        ]
      : [['zh', ZH_PASSAGES]];
    for (const [lang, passages] of sets) {
      for (const speed of speeds) {
        const errors = [];
        const oldErrors = [];
        let total = 0;
        let estimated = 0;
        for (const [i, text] of passages.entries()) {
          const spoken = await synthesizeSentences(
            splitSentences(text),
            path.join(dir, `${voiceId}-${speed}-${i}.wav`),
            { voiceId, speed },
          );
          const estimate = estimateNarrationMs(text, { voiceId, speed });
          errors.push((estimate - spoken.durationMs) / spoken.durationMs);
          oldErrors.push((oldEstimateMs(text, speed) - spoken.durationMs) / spoken.durationMs);
          total += spoken.durationMs;
          estimated += estimate;
        }
        const now = summary(errors);
        const before = summary(oldErrors);
        console.log(
          `${voiceId} ${lang} text ×${speed}: ${passages.length} passages, ${(total / 1000).toFixed(1)} s spoken, ` +
            `estimate ${(estimated / 1000).toFixed(1)} s; error mean ${pct(now.mean)}, max ${pct(now.max)}` +
            ` (old page rate: mean ${pct(before.mean)}, max ${pct(before.max)})`,
        );
      }
    }
  }

  // A drama: three speakers, the third on the first voice again at its speed variant.
  const lines = [
    ['沈言', '阿瑶，你今天怎么这么早就来了？'],
    ['阿瑶', '师兄说山下出了事，让我们赶紧下山看看。'],
    ['老掌柜', '两位客官，快进来避避雨吧，这雨一时半会儿停不了。'],
    ['沈言', '多谢掌柜。敢问这镇上，最近可有什么怪事？'],
    ['老掌柜', '怪事？哎，说来话长，三天前镇东头的王家，一夜之间人都不见了。'],
    ['阿瑶', '一夜之间？'],
  ].map(([speaker, text]) => ({ speaker, text }));
  const speakers = [...new Set(lines.map((l) => l.speaker))];
  const voices = assignVoices(speakers, {}, () => true);
  const speech = { speak: (sentences, file, options) => speakSentences(sentences, file, options) };
  const order = lines.flatMap((l) =>
    splitSentences(l.text).map((text) => ({ speaker: l.speaker, text })),
  );
  const spoken = await speakDialogue(order, voices, path.join(dir, 'drama.wav'), {
    speed: 1,
    signal: new AbortController().signal,
    speech,
    caption: (line) => line.text,
  });
  const estimate = estimateDialogueMs(lines, { speed: 1 });
  const old = lines.reduce((sum, l) => sum + oldEstimateMs(l.text, 1), 0);
  console.log(
    `drama, 3 speakers (${speakers.map((s) => `${s} ${voices[s].voiceId}×${voices[s].speedFactor}`).join(', ')}): ` +
      `${(spoken.durationMs / 1000).toFixed(1)} s spoken, estimate ${(estimate / 1000).toFixed(1)} s ` +
      `(${pct((estimate - spoken.durationMs) / spoken.durationMs)}; old page rate ${pct((old - spoken.durationMs) / spoken.durationMs)})`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
