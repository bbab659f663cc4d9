import { describe, expect, it } from '@jest/globals';
import { demoCutSegment, demoCutVideo } from '../../../testing/fixtures';
import {
  adoptAudio,
  draftOf,
  patchSegment,
  saveBody,
  spokenMs,
  textChangedSinceSpoken,
} from '../model';

describe('the cut editor’s segments', () => {
  const cut = demoCutVideo(12, {
    segments: [demoCutSegment(0), demoCutSegment(1, { audioUrl: '', audioDurationMs: undefined })],
  });

  it('marks a spoken segment whose caption changed, not one never spoken, and unmarks it once spoken', () => {
    const draft = draftOf(cut);
    const [spoken, silent] = draft.segments;
    if (!spoken || !silent) throw new Error('two segments expected');
    expect(textChangedSinceSpoken(spoken)).toBe(false);
    expect(textChangedSinceSpoken(silent)).toBe(false);
    expect(textChangedSinceSpoken(patchSegment(silent, { text: '改过的第二段。' }))).toBe(false);

    const edited = patchSegment(spoken, { text: '改过的第一段。' });
    expect(edited.audioUrl).toBe('');
    expect(textChangedSinceSpoken(edited)).toBe(true);
    // A change of voice alone drops the audio too, but the caption is the one spoken.
    expect(textChangedSinceSpoken(patchSegment(spoken, { voiceId: 'zh-male-1' }))).toBe(false);

    // Spoken again: the server's answer lines up with the list sent.
    const sent = { ...draft, segments: [edited, silent] };
    const answered = demoCutVideo(12, {
      segments: [
        demoCutSegment(0, { text: '改过的第一段。', audioUrl: '/media/cut/new-0.wav' }),
        demoCutSegment(1, { audioUrl: '', audioDurationMs: undefined }),
      ],
    });
    const after = adoptAudio(sent, sent.segments, answered).segments[0];
    expect(after?.audioUrl).toBe('/media/cut/new-0.wav');
    expect(after && textChangedSinceSpoken(after)).toBe(false);
    expect(after && textChangedSinceSpoken(patchSegment(after, { text: '又改了。' }))).toBe(true);
  });

  it('sends neither the key nor what was spoken to the server', () => {
    const body = saveBody(12, draftOf(cut));
    for (const segment of body.segments) {
      expect(segment).not.toHaveProperty('key');
      expect(segment).not.toHaveProperty('spokenText');
    }
    expect(body.segments.map((segment) => segment.index)).toEqual([0, 1]);
  });

  it('adds up the speech of the spoken segments', () => {
    expect(spokenMs(cut.segments)).toBe(3000);
    expect(spokenMs([demoCutSegment(0), demoCutSegment(1), demoCutSegment(2)])).toBe(12_000);
  });
});
