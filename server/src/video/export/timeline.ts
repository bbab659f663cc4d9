import path from 'node:path';
import { Type, type Static } from 'typebox';
import { CaptionStyle as CaptionStyleSchema, type CaptionStyle } from '@kol/shared-sdk/contracts';
import type { MediaStores } from '../../storage';
import { keyBelow } from '../../storage';
import { FPS, MOTIONS, frameBoundaries } from '../engine/compose';
import type { Aspect, Cue } from '../engine/captions';
import type { ComposeSegment } from '../engine/compose-segments';

/**
 * What a render used, in the terms an editor needs: every segment's file (as a media store key,
 * so a worker on another machine, a restart or a day later finds it), its frames on the
 * timeline and its motion; the narration and its caption cues; the music and its level. The
 * compose stages store it with their outputs (`timeline`), and the export (export/service.ts)
 * builds the 剪映 draft and the MLT project from it alone, never by cutting the MP4 again.
 */

/**
 * How the exports dip the music under the voice, where the render ducks it with a compressor
 * keyed on the voice (compose.ts, ratio 10): to this share of its level, with the compressor's
 * attack and release.
 */
export const DUCKING = { share: 0.3, attackMs: 20, releaseMs: 400 } as const;

const StoredFile = Type.Object({
  store: Type.Union([Type.Literal('media'), Type.Literal('uploads')]),
  key: Type.String(),
});
export type StoredFile = Static<typeof StoredFile>;

// Spelled out: TypeBox types a union mapped over an array as never (as in the SDK's contracts).
const MotionSchema = Type.Union([
  Type.Literal('zoom-in'),
  Type.Literal('pan-right'),
  Type.Literal('zoom-out'),
  Type.Literal('pan-left'),
]);

const TimelineSegment = Type.Object({
  kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
  file: StoredFile,
  /** Its place on the timeline, in frames of FPS (compose.ts frameBoundaries). */
  startFrame: Type.Integer({ minimum: 0 }),
  frames: Type.Integer({ minimum: 1 }),
  /** Stills: the Ken Burns motion the render gave it (compose.ts kenBurnsFilters). */
  motion: Type.Optional(MotionSchema),
  /** Clips: the window of the source shown, and whether it repeats when shorter. */
  sourceStartMs: Type.Optional(Type.Number()),
  sourceEndMs: Type.Optional(Type.Number()),
  loop: Type.Optional(Type.Boolean()),
  /** The render filtered its picture (de-duplication): an editor's draft cannot say so. */
  filtered: Type.Optional(Type.Boolean()),
});
export type TimelineSegment = Static<typeof TimelineSegment>;

export const TimelineSchema = Type.Object({
  version: Type.Literal(1),
  fps: Type.Literal(FPS),
  aspect: Type.Union([Type.Literal('9:16'), Type.Literal('16:9')]),
  /** The render's frame size (smaller than 1080p when the installation renders smaller). */
  width: Type.Integer({ minimum: 2 }),
  height: Type.Integer({ minimum: 2 }),
  durationMs: Type.Number(),
  segments: Type.Array(TimelineSegment),
  narration: StoredFile,
  cues: Type.Array(
    Type.Object({ text: Type.String(), startMs: Type.Number(), endMs: Type.Number() }),
  ),
  captionStyle: CaptionStyleSchema,
  /** The music under the narration (looped, ducked under the voice), at this linear gain. */
  music: Type.Optional(Type.Object({ file: StoredFile, volume: Type.Number() })),
  /** The whole render was filtered (de-duplication presets): no draft can say so. */
  filtered: Type.Optional(Type.Boolean()),
});
export type Timeline = Static<typeof TimelineSchema>;

/**
 * A file of this machine that a render read, back to the store key it came from: the media
 * dir's files (task outputs, the built-in library), or a store's local file or cached copy.
 * Null for anything else (a scratch file): such a render cannot be exported.
 */
export function storedFileOf(
  file: string,
  where: { mediaDir: string; stores: Pick<MediaStores, 'media' | 'uploads'> },
): StoredFile | null {
  const media = keyBelow(where.mediaDir, file) ?? where.stores.media.keyOfFile(file);
  if (media) return { store: 'media', key: media };
  const upload = where.stores.uploads.keyOfFile(file);
  return upload ? { store: 'uploads', key: upload } : null;
}

/**
 * The timeline of a composition as composeSegments renders it: the same frame boundaries and
 * the same motion per index. Null when a file it used has no store key.
 */
export function timelineOf(
  input: {
    aspect: Aspect;
    size: { width: number; height: number };
    segments: ComposeSegment[];
    narration: string;
    cues: Cue[];
    captionStyle: CaptionStyle;
    music?: { path: string; volume: number };
    videoFilters?: string[];
  },
  where: { mediaDir: string; stores: Pick<MediaStores, 'media' | 'uploads'> },
): Timeline | null {
  const { boundaries, durationMs } = frameBoundaries(input.segments.map((s) => s.durationMs));
  const segments: TimelineSegment[] = [];
  for (const [i, segment] of input.segments.entries()) {
    const startFrame = boundaries[i] ?? 0;
    const frames = (boundaries[i + 1] ?? startFrame) - startFrame;
    if (frames <= 0) continue;
    const file = storedFileOf(segment.media.path, where);
    if (!file) return null;
    const { media } = segment;
    segments.push({
      kind: media.kind,
      file,
      startFrame,
      frames,
      ...(media.kind === 'image'
        ? { motion: MOTIONS[i % MOTIONS.length] ?? 'zoom-in' }
        : {
            ...(media.startMs !== undefined ? { sourceStartMs: media.startMs } : {}),
            ...(media.endMs !== undefined ? { sourceEndMs: media.endMs } : {}),
            ...(media.loop ? { loop: true } : {}),
          }),
      ...(segment.videoFilters?.length ? { filtered: true } : {}),
    });
  }
  const narration = storedFileOf(
    path.isAbsolute(input.narration) ? input.narration : path.join(where.mediaDir, input.narration),
    where,
  );
  const music = input.music ? storedFileOf(input.music.path, where) : null;
  if (!narration || (input.music && !music)) return null;
  return {
    version: 1,
    fps: FPS,
    aspect: input.aspect,
    width: input.size.width,
    height: input.size.height,
    durationMs,
    segments,
    narration,
    cues: input.cues.map(({ text, startMs, endMs }) => ({ text, startMs, endMs })),
    captionStyle: input.captionStyle,
    ...(music && input.music ? { music: { file: music, volume: input.music.volume } } : {}),
    ...(input.videoFilters?.length ? { filtered: true } : {}),
  };
}
