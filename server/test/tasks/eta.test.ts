import { describe, expect, it } from '@jest/globals';
import {
  ProjectType,
  estimateNarrationMs,
  findMarketTemplate,
  spokenCallToAction,
} from '@kol/shared-sdk/contracts';
import { RemainingTime, plannedVideoMs } from '../../src/tasks/eta';
import { etaSeconds } from '../../src/tasks/runner';

const start = new Date(0);
const at = (seconds: number) => seconds * 1000;

describe('the remaining time of a task', () => {
  it('never exceeds the previous value less the time passed, whatever the progress does', () => {
    // A run that stalls, then races, then stalls again: the pace alone would jump up and down.
    const clock = new RemainingTime(start, null);
    const reports: Array<[number, number]> = [
      [2, 5],
      [4, 10],
      [6, 10.5],
      [20, 11],
      [40, 11.2],
      [55, 11.4],
      [60, 60],
      [70, 61],
      [95, 62],
      [100, 90],
    ];
    let previous: { seconds: number; at: number } | null = null;
    for (const [time, progress] of reports) {
      const seconds = clock.remaining(progress, at(time)) ?? NaN;
      expect(Number.isNaN(seconds)).toBe(false);
      if (previous)
        expect(seconds).toBeLessThanOrEqual(
          Math.max(0, previous.seconds - (time - previous.at)) + 1e-9,
        );
      previous = { seconds, at: time };
    }
    expect(clock.remaining(100, at(91))).toBe(0);
    // The pace alone climbed on the same run: 36 s left at 4 s, then 427 s left at 55 s.
    expect(etaSeconds(start, 10, at(4))).toBe(36);
    expect(etaSeconds(start, 11.4, at(55))).toBe(427);
  });

  it('starts from the planned work and lets the measured pace take over by half way', () => {
    const planned = new RemainingTime(start, 100);
    // Nothing done yet: the plan alone (no pace to extrapolate).
    expect(planned.next(0, at(0))).toBe(100);
    // 10 % after 5 s: the pace says 45 s, the plan 90 s; mostly the plan still.
    expect(planned.next(10, at(5))).toBe(Math.round(0.2 * 45 + 0.8 * 90));
    // Half way after 30 s: the pace alone (30 s), below the cap.
    expect(planned.next(50, at(30))).toBe(30);
    // Unknown before any progress without a plan, as before.
    expect(new RemainingTime(start, null).next(0, at(3))).toBeNull();
  });

  it('shows whole seconds that never climb over the last shown less the whole seconds passed', () => {
    const clock = new RemainingTime(start, 40);
    let last = clock.next(0, at(0)) ?? NaN;
    let lastAt = 0;
    for (let t = 1; t <= 40; t += 0.5) {
      // A pace that keeps changing its mind.
      const progress = Math.min(99, t * (t % 3 === 0 ? 1 : 2.5));
      const shown = clock.next(progress, at(t)) ?? NaN;
      // Rounding to whole seconds can show at most half a second either way.
      expect(shown).toBeLessThanOrEqual(last - (t - lastAt) + 1);
      last = shown;
      lastAt = t;
    }
  });
});

describe('the planned length of a work', () => {
  it('is the narration estimated with the voice the type speaks with', () => {
    const text = '雨下了整整一夜。清晨，客栈的老板推开门。';
    const work = {
      type: ProjectType.decompressionOverseas,
      text,
      settings: { aspect: '9:16' as const },
    };
    // Overseas without a voice: the English voice reads the Chinese, much slower.
    expect(plannedVideoMs(work)).toBe(estimateNarrationMs(text, { voiceId: 'espeak-en-us-f' }));
    expect(plannedVideoMs({ ...work, type: ProjectType.decompression })).toBe(
      estimateNarrationMs(text, { voiceId: 'espeak-cmn-f' }),
    );
    // The reverse video lasts as long as its script, once it has one of its own.
    expect(plannedVideoMs({ ...work, type: ProjectType.convert })).toBe(
      estimateNarrationMs(text, { voiceId: 'espeak-cmn-f' }),
    );
    expect(plannedVideoMs({ ...work, type: ProjectType.convert, text: '' })).toBeNull();
  });

  it('is the template’s pitch and the call to action for a marketing work without its own text', () => {
    const fields = { product: '竹纤维毛巾', sellingPoints: '吸水快；不掉毛' };
    const work = {
      type: ProjectType.market,
      text: '',
      settings: { aspect: '9:16' as const, templateId: 1, templateFields: fields },
    };
    // No call given: the default one ends the template's script, and is said once, last.
    const script = findMarketTemplate(1)?.script({ ...fields, callToAction: '立即了解' }) ?? [];
    expect(script.at(-1)).toBe('立即了解！');
    expect(plannedVideoMs(work)).toBe(
      estimateNarrationMs([...script.slice(0, -1), spokenCallToAction('立即了解')], {
        voiceId: 'espeak-cmn-f',
      }),
    );
    // The work's own text wins over the template's.
    expect(plannedVideoMs({ ...work, text: '好用。' })).toBe(
      estimateNarrationMs(['好用。', '立即了解！'], { voiceId: 'espeak-cmn-f' }),
    );
    expect(plannedVideoMs({ ...work, settings: { aspect: '9:16' as const } })).toBeNull();
  });

  it('is the dialogue for the drama, with the voices chosen per character', () => {
    const work = {
      type: ProjectType.realOpera,
      text: '沈言：阿瑶，你来了。\n阿瑶：师兄，山下出事了。\n\n老掌柜：两位快进来避雨。',
      settings: { aspect: '9:16' as const, speed: 1 },
    };
    const ms = plannedVideoMs(work) ?? 0;
    expect(ms).toBeGreaterThan(
      plannedVideoMs({ ...work, settings: { ...work.settings, speed: 2 } }) ?? Infinity,
    );
    expect(ms).toBeGreaterThan(3000);
  });
});
