import type { CutSegment, CutVideo } from '@kol/shared-sdk';

/**
 * A segment as the editor holds it: the server's fields plus a key that survives reordering and
 * the text its last speech said (null: none known), so an edited caption can say it needs
 * speaking again rather than only that it is silent. Neither is sent to the server.
 */
export interface LocalSegment extends CutSegment {
  key: string;
  spokenText: string | null;
}

/** What the user edits and the editor saves with `update_cut_video_data`. */
export interface CutDraft {
  segments: LocalSegment[];
  musicId: number | null;
  musicVolume: number | null;
}

let nextKey = 0;
const newKey = () => `segment-${(nextKey += 1)}`;

/** The draft of a cut video fetched from the server (each segment gets a fresh key). */
export function draftOf(cut: CutVideo): CutDraft {
  return {
    segments: cut.segments.map((segment) => ({
      ...segment,
      key: newKey(),
      spokenText: segment.audioUrl ? segment.text : null,
    })),
    musicId: cut.musicId,
    musicVolume: cut.musicVolume,
  };
}

/**
 * The whole list in order, as `update_cut_video_data` takes it: each index is its position.
 * A volume never set (null, the default) is left out rather than sent as null: the contract
 * types it as a union with the number first, which the server's coercing validator would read
 * as 0 (silence).
 */
export function saveBody(workId: number, draft: CutDraft) {
  return {
    workId,
    segments: draft.segments.map(({ key: _key, spokenText: _spoken, ...segment }, index) => ({
      ...segment,
      index,
    })),
    musicId: draft.musicId,
    ...(draft.musicVolume !== null ? { musicVolume: draft.musicVolume } : {}),
  };
}

const sameSpeech = (a: CutSegment, b: CutSegment) =>
  a.text === b.text && a.voiceId === b.voiceId && a.speed === b.speed;

/**
 * Applies a change to one segment. A change of what is spoken (text, voice, speed) drops its
 * audio, as the server does when it is saved.
 */
export function patchSegment(segment: LocalSegment, patch: Partial<CutSegment>): LocalSegment {
  const next = { ...segment, ...patch };
  if (sameSpeech(segment, next)) return next;
  delete next.audioDurationMs;
  return { ...next, audioUrl: '' };
}

/** The list with the segment at `from` moved to `to`. */
export function moveSegment<T>(items: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= items.length || to >= items.length)
    return [...items];
  const next = [...items];
  const [moved] = next.splice(from, 1);
  if (moved !== undefined) next.splice(to, 0, moved);
  return next;
}

/**
 * Takes the audio the server holds into the draft. `sent` is the list the server's answer
 * lines up with (what was saved last, in that order); a segment whose text, voice or speed was
 * changed since keeps its own (empty) audio, since the server will drop the old one anyway.
 */
export function adoptAudio(
  draft: CutDraft,
  sent: readonly LocalSegment[],
  cut: CutVideo,
): CutDraft {
  const answered = new Map<string, { sent: LocalSegment; stored: CutSegment }>();
  sent.forEach((segment, index) => {
    const stored = cut.segments[index];
    if (stored) answered.set(segment.key, { sent: segment, stored });
  });
  let changed = false;
  const segments = draft.segments.map((segment) => {
    const match = answered.get(segment.key);
    if (!match || !sameSpeech(segment, match.sent)) return segment;
    const { audioUrl, audioDurationMs } = match.stored;
    if (segment.audioUrl === audioUrl && segment.audioDurationMs === audioDurationMs)
      return segment;
    changed = true;
    // The audio taken says the segment's text (its speech is the one sent): it is now spoken.
    const next = { ...segment, audioUrl, spokenText: audioUrl ? segment.text : segment.spokenText };
    if (audioDurationMs === undefined) delete next.audioDurationMs;
    else next.audioDurationMs = audioDurationMs;
    return next;
  });
  return changed ? { ...draft, segments } : draft;
}

/** The segments not spoken yet: a merge needs every one spoken. */
export function unspokenCount(segments: readonly CutSegment[]): number {
  return segments.filter((segment) => !segment.audioUrl).length;
}

/**
 * A segment silent because its caption was changed after it was spoken: it says 「文案已修改，
 * 需要重新配音」 rather than only that it has no speech.
 */
export function textChangedSinceSpoken(segment: LocalSegment): boolean {
  return !segment.audioUrl && segment.spokenText !== null && segment.text !== segment.spokenText;
}

/** How long the segments' speech lasts, of those spoken (milliseconds). */
export function spokenMs(segments: readonly CutSegment[]): number {
  return segments.reduce(
    (sum, segment) => sum + (segment.audioUrl ? (segment.audioDurationMs ?? 0) : 0),
    0,
  );
}

/** `5_300` → `0:05.3`: a window of a background material. */
export function formatWindowTime(ms: number): string {
  const tenths = Math.max(0, Math.round(ms / 100));
  const seconds = Math.floor(tenths / 10);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}.${tenths % 10}`;
}
