import { formatDurationMs } from '@kol/shared-sdk';
import { describe, expect, it } from '@jest/globals';
import { SENTENCE_PAUSE_MS, estimateNarrationMs } from '@kol/shared-sdk';
import { estimateShotMs, splitIntoShots, splitSentences, textOfShots } from '../shots';
import { captionsToSrt, srtToCaptions } from '../srt';

// The same cases as the server's split (server/src/video/engine/captions.ts, video/pipelines/comics/pipeline.ts), so a
// change on one side shows here.
describe('the shot split (mirror of the server)', () => {
  it('ends sentences at Chinese and Western punctuation and at line ends, not inside 3.5', () => {
    expect(splitSentences('从前有座山。山里有座庙！庙里有个和尚？')).toEqual([
      '从前有座山。',
      '山里有座庙！',
      '庙里有个和尚？',
    ]);
    expect(splitSentences('It costs 3.5 dollars. Buy it now.')).toEqual([
      'It costs 3.5 dollars.',
      'Buy it now.',
    ]);
    expect(splitSentences('第一行\n第二行')).toEqual(['第一行', '第二行']);
    expect(splitSentences('……！！')).toEqual([]);
  });

  it('cuts a sentence over 40 characters again at commas', () => {
    const long = `${'甲'.repeat(30)}，${'乙'.repeat(30)}。`;
    expect(splitSentences(long)).toEqual([`${'甲'.repeat(30)}，`, `${'乙'.repeat(30)}。`]);
  });

  it('groups 1 to 3 sentences a shot, a shot ending before 60 characters', () => {
    expect(splitIntoShots('一。二。三。四。')).toEqual(['一。二。三。', '四。']);
    const thirty = `${'字'.repeat(29)}。`;
    expect(splitIntoShots(`${thirty}${thirty}${thirty}`)).toEqual([`${thirty}${thirty}`, thirty]);
  });

  it('joins shots one a line, which the split reads back as sentence ends', () => {
    const shots = ['没有标点的一句', '第二句'];
    expect(splitSentences(textOfShots(shots))).toEqual(shots);
  });
});

describe('estimates and SRT', () => {
  it("estimates a shot as the SDK's narration and the pause before the next shot", () => {
    const voice = { voiceId: 'espeak-cmn-f', speed: 1 };
    expect(estimateShotMs('你好。今天天气很好。', voice)).toBe(
      estimateNarrationMs('你好。今天天气很好。', voice) + SENTENCE_PAUSE_MS,
    );
    expect(estimateShotMs('', voice)).toBe(0);
    expect(formatDurationMs(83_400)).toBe('1分23秒');
    expect(formatDurationMs(9_000)).toBe('9秒');
  });

  it('keeps the captions through an SRT', () => {
    const captions = ['第一句。', 'Second line, with a comma.'];
    const srt = captionsToSrt(captions);
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\n第一句。\n/);
    expect(srtToCaptions(srt)).toEqual(captions);
  });
});
