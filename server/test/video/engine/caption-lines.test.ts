import { describe, expect, it } from '@jest/globals';
import { describeLineRules } from '@kol/shared-sdk/testing/lines';
import {
  CJK_LINE_LIMIT,
  LATIN_LINE_LIMIT,
  captionLines,
  pageLines,
  timedLines,
} from '../../../src/video/engine/caption-lines';
import { assLineRatio, captionMetrics, toAss, toSrt } from '../../../src/video/engine/captions';
import { words } from '../../../src/text/segmenter';

// The SDK's line rules as the server binds them: never inside one of jieba's words.
describeLineRules({ words, captionLines, pageLines, timedLines });

describe('the SRT and the burned captions', () => {
  const cues = [
    { text: '苏晚推开邮局的木门，柜台上已经放着一封信。', startMs: 0, endMs: 4000 },
    {
      text: 'The letter was addressed to her, and it was signed by herself.',
      startMs: 4000,
      endMs: 8000,
    },
  ];

  it('show the same lines at the same times, one line per cue', () => {
    const srt = toSrt(cues, '9:16');
    // 9 and 10 spoken characters share the 4 s.
    const srtCues = srt.trim().split(/\n\n/);
    expect(srtCues).toHaveLength(4);
    expect(srtCues[0]).toBe('1\n00:00:00,000 --> 00:00:01,895\n苏晚推开邮局的木门，');
    expect(srtCues[1]).toBe('2\n00:00:01,895 --> 00:00:04,000\n柜台上已经放着一封信。');
    const ass = toAss(cues, { width: 1080, height: 1920 }, '9:16');
    const dialogue = ass.split('\n').filter((line) => line.startsWith('Dialogue:'));
    expect(dialogue).toHaveLength(4);
    expect(dialogue[0]).toBe(
      'Dialogue: 0,0:00:00.00,0:00:01.90,Caption,,0,0,0,,苏晚推开邮局的木门，',
    );
    expect(dialogue[2]).toMatch(/,CaptionLatin,,0,0,0,,The letter was addressed to her,$/);
    expect(ass).not.toContain('\\N');
  });

  it('are phone-sized: at least 64 px glyphs at 1080 wide, a line at the limit fitting the margins', () => {
    for (const [aspect, size] of [
      ['9:16', { width: 1080, height: 1920 }],
      ['16:9', { width: 1920, height: 1080 }],
      ['9:16', { width: 540, height: 960 }],
    ] as const) {
      const styles = toAss(cues, size, aspect)
        .split('\n')
        .filter((line) => line.startsWith('Style: '))
        .map((line) => line.split(','));
      const caption = styles.find((s) => s[0] === 'Style: Caption') ?? [];
      const latin = styles.find((s) => s[0] === 'Style: CaptionLatin') ?? [];
      const metrics = captionMetrics(size, aspect);
      // libass's Fontsize is the line height: the em is that over the font's line ratio.
      expect(Number(caption[2])).toBe(metrics.assSize);
      expect(Math.abs(Number(caption[2]) / assLineRatio() - metrics.em)).toBeLessThan(0.5);
      expect(metrics.em).toBeGreaterThanOrEqual(
        Math.floor((64 * Math.min(size.width, size.height)) / 1080),
      );
      const margin = Number(caption[19]);
      const outline = Number(caption[16]);
      const room = size.width - 2 * margin;
      expect(metrics.em * CJK_LINE_LIMIT[aspect] + 2 * outline).toBeLessThanOrEqual(room);
      expect((Number(latin[2]) / assLineRatio()) * LATIN_LINE_LIMIT * 0.55).toBeLessThanOrEqual(
        room,
      );
    }
    // Noto Sans SC's OS/2 line height: 1160 + 288 units of 1000.
    expect(assLineRatio()).toBeCloseTo(1.448, 3);
  });
});
