import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { DedupPresets, ProjectType, type WorkDetail } from '@kol/shared-sdk/contracts';
import { badRequest } from '../http/api-error';
import { encodeWav, parseWav, pcmDurationMs, slicePcm } from '../providers/speech/wav';
import type { Repositories } from '../repositories';
import type { StoredCutSegment } from '../repositories/cut-videos';
import { keyOf, type MediaStores } from '../storage';
import { mapLimit } from './engine/compose';
import { DEFAULT_MATERIAL_ID, MATERIAL_SECONDS } from './library/materials';
import { NARRATOR } from './pipelines/anime/script';
import { CueSchema, PipelineShotSchema, SpeakerVoicesSchema } from './pipelines/kit/outputs';
import { cleanScript, mediaUrl } from './pipelines/kit/pipeline';

/**
 * The cut data of a work's newest finished video: what that video was made of, segment by
 * segment (its shots, lines or sentences; their pictures or footage; the voice that said them),
 * each segment with its own piece of the video's narration cut out at the caption times and
 * stored beside it. The editor then opens the video as it is (every segment spoken), and a
 * merge that changed one segment speaks that one alone and keeps the rest as they were.
 *
 * Every narrated pipeline speaks its sentences one by one and joins them with the same pause
 * (SENTENCE_PAUSE_MS) that the merge puts between segments, and its cues are those sentences'
 * times: so a segment's piece is exactly what it said, and the pieces joined again are the
 * narration.
 */

/** What reading the finished video needs (the cut video service's own). */
export interface CutFromVideoDeps {
  repos: Pick<Repositories, 'videoTasks' | 'uploads'>;
  stores: Pick<MediaStores, 'media'>;
  /** The window length of a background material the user may use; null when it is not theirs. */
  materialLength(userId: number, materialId: number): Promise<number | null>;
}

/**
 * Footage that played on through several segments (a background loop, the reverse video's
 * source, a scene's clip): its window, looped, from the start of segment `fromPart`, at
 * `speed` (source ms per video ms).
 */
interface Footage {
  materialId: number;
  loop: { startMs: number; endMs: number };
  speed: number;
  fromPart: number;
}

/** A segment of the video before its audio is cut: what it says and shows, and its cues. */
interface Part {
  /** How many of the narration's cues (sentences, in order) this segment said. */
  cues: number;
  segment: Pick<StoredCutSegment, 'text' | 'imageUrl' | 'voiceId' | 'speed' | 'speaker'>;
  footage?: Footage;
}

/** What every narrated pipeline's voice stage records (kit/outputs.ts NarrationSchema). */
const NarratedSchema = Type.Object({
  narration: Type.String({ minLength: 1 }),
  durationMs: Type.Number(),
  cues: Type.Array(CueSchema, { minItems: 1 }),
});
type Narrated = Static<typeof NarratedSchema>;

/** One voice for the whole video (script stages of the narrated types). */
const OneVoiceSchema = Type.Object({ voiceId: Type.String(), speed: Type.Number() });

/** Comics, overseas comics, marketing: shots of sentences, one picture each. */
const ShotsVideoSchema = Type.Object({
  ...OneVoiceSchema.properties,
  shots: Type.Array(PipelineShotSchema),
  images: Type.Array(Type.String()),
});

/** Decompression: the sentences over one looping background. */
const BackgroundVideoSchema = Type.Object({
  ...OneVoiceSchema.properties,
  materialId: Type.Number(),
});

/** The reverse video: the sentences over the source's window, de-duplicated. */
const ConvertVideoSchema = Type.Object({
  ...OneVoiceSchema.properties,
  window: Type.Object({ startMs: Type.Number(), endMs: Type.Number() }),
  sourceDurationMs: Type.Number(),
  dedup: DedupPresets,
});

/** The anime short: a shot per line of one speaker, each speaker in their voice. */
const AnimeVideoSchema = Type.Object({
  shots: Type.Array(
    Type.Object({ ...PipelineShotSchema.properties, speaker: Type.String(), line: Type.String() }),
  ),
  images: Type.Array(Type.String()),
  voices: SpeakerVoicesSchema,
  speed: Type.Number(),
});

/** The real-person drama: scenes of the user's clip or photo, lines of speakers. */
const OperaVideoSchema = Type.Object({
  scenes: Type.Array(
    Type.Object({
      kind: Type.Union([Type.Literal('image'), Type.Literal('video')]),
      url: Type.String(),
      lines: Type.Array(
        Type.Object({ speaker: Type.String(), sentences: Type.Array(Type.String()) }),
      ),
    }),
  ),
  voices: SpeakerVoicesSchema,
  speed: Type.Number(),
});

/** The outputs as the schema says, or null (a video of an older release: made the old way). */
function read<S extends TSchema>(schema: S, outputs: unknown): Static<S> | null {
  return Value.Check(schema, outputs) ? (outputs as Static<S>) : null;
}

/**
 * A segment's text from its sentences, as the editor stores text (one line) and as the merge
 * splits it again: Chinese sentences run on, a sentence ending in Latin script takes a space.
 */
function textOf(sentences: string[]): string {
  const joined = sentences.reduce(
    (text, sentence) =>
      text && /[\x21-\x7e]$/.test(text) ? `${text} ${sentence}` : text + sentence,
    '',
  );
  return cleanScript(joined).replace(/\n/g, ' ');
}

/** A speed stated only when it is not the normal one (the contract's range, 2 decimals). */
function speedOf(speed: number): { speed?: number } {
  const clamped = Math.round(Math.min(2, Math.max(0.5, speed)) * 100) / 100;
  return clamped === 1 ? {} : { speed: clamped };
}

/** The voice of a speaker of a dialogue (kit/dialogue.ts assignVoices) on the segment. */
function speakerVoice(
  voices: Static<typeof SpeakerVoicesSchema>,
  speaker: string,
  speed: number,
): Pick<StoredCutSegment, 'voiceId' | 'speed'> {
  const voice = voices[speaker];
  return voice ? { voiceId: voice.voiceId, ...speedOf(speed * voice.speedFactor) } : {};
}

/** The user's upload behind a URL the video showed, or the refusal to edit without it. */
async function uploadedVideo(
  deps: CutFromVideoDeps,
  userId: number,
  url: string,
  what: string,
): Promise<{ assetId: number; durationMs: number }> {
  const row = url ? await deps.repos.uploads.findOwnedByUrl(userId, url) : null;
  if (row?.kind !== 'video' || !row.durationMs)
    throw badRequest(`${what}已删除，编辑器无法保留视频的原画面，请重新上传后重新生成视频`);
  return { assetId: row.assetId, durationMs: row.durationMs };
}

/** The segments of the video of each type, from its outputs; null: not a video of its kind. */
async function partsOf(
  deps: CutFromVideoDeps,
  userId: number,
  work: WorkDetail,
  outputs: Narrated,
): Promise<{ parts: Part[]; voiceId: string } | null> {
  switch (work.type) {
    case ProjectType.comics:
    case ProjectType.comicsOverseas:
    case ProjectType.market: {
      // A shot each: its sentences and its picture (a market's end card among them).
      const video = read(ShotsVideoSchema, outputs);
      if (!video) return null;
      const parts = video.shots.map((shot, i): Part => {
        const image = video.images[i];
        return {
          cues: shot.sentences.length,
          segment: {
            text: textOf(shot.sentences),
            ...(image ? { imageUrl: mediaUrl(image) } : {}),
            ...speedOf(video.speed),
          },
        };
      });
      return { parts, voiceId: video.voiceId };
    }
    case ProjectType.decompression:
    case ProjectType.decompressionOverseas: {
      // A sentence each, over the background that played on through all of them.
      const video = read(BackgroundVideoSchema, outputs);
      if (!video) return null;
      const length = await deps.materialLength(userId, video.materialId);
      // A background that is gone falls back to the first built-in (the user can change it).
      const footage: Footage = {
        materialId: length ? video.materialId : DEFAULT_MATERIAL_ID,
        loop: { startMs: 0, endMs: length || MATERIAL_SECONDS * 1000 },
        speed: 1,
        fromPart: 0,
      };
      const parts = outputs.cues.map((cue): Part => ({
        cues: 1,
        segment: { text: textOf([cue.text]), ...speedOf(video.speed) },
        footage,
      }));
      return { parts, voiceId: video.voiceId };
    }
    case ProjectType.convert: {
      // A sentence each, over the uploaded source's window as the video played it on.
      const video = read(ConvertVideoSchema, outputs);
      if (!video) return null;
      const source = await uploadedVideo(
        deps,
        userId,
        work.settings.sourceVideoUrl?.trim() ?? '',
        '「原视频」',
      );
      // Another video uploaded since is not the footage this video showed.
      if (Math.abs(source.durationMs - video.sourceDurationMs) > 50)
        throw badRequest('「原视频」已更换，编辑器无法保留视频的原画面，请先重新生成视频');
      const footage: Footage = {
        materialId: source.assetId,
        loop: video.window,
        speed: video.dedup.speed ?? 1,
        fromPart: 0,
      };
      const parts = outputs.cues.map((cue): Part => ({
        cues: 1,
        segment: { text: textOf([cue.text]), ...speedOf(video.speed) },
        footage,
      }));
      return { parts, voiceId: video.voiceId };
    }
    case ProjectType.animeShorts: {
      // A shot each: one speaker's line, in that speaker's voice, over the shot's picture.
      const video = read(AnimeVideoSchema, outputs);
      if (!video) return null;
      // A shot with nothing to say (a line of punctuation) was not heard: it is left out.
      const spoken = video.shots.flatMap((shot, i) =>
        shot.sentences.length > 0 ? [{ shot, image: video.images[i] }] : [],
      );
      const parts = spoken.map(({ shot, image }): Part => {
        return {
          cues: shot.sentences.length,
          segment: {
            text: textOf(shot.sentences),
            ...(image ? { imageUrl: mediaUrl(image) } : {}),
            ...speakerVoice(video.voices, shot.speaker, video.speed),
            // The narrator's lines are captioned as they are spoken.
            ...(shot.speaker !== NARRATOR ? { speaker: shot.speaker } : {}),
          },
        };
      });
      const narrator = video.voices[NARRATOR]?.voiceId;
      const first = parts.find((part) => part.segment.voiceId)?.segment.voiceId;
      const voiceId = narrator ?? first;
      return voiceId ? { parts, voiceId } : null;
    }
    case ProjectType.realOpera: {
      // A line each, in its speaker's voice, over its scene's photo or the scene's clip as it
      // played on through the scene's lines.
      const video = read(OperaVideoSchema, outputs);
      if (!video) return null;
      const parts: Part[] = [];
      for (const [i, scene] of video.scenes.entries()) {
        const what = `第 ${i + 1} 个场景的素材`;
        const clip =
          scene.kind === 'video' ? await uploadedVideo(deps, userId, scene.url, what) : null;
        if (!clip && !(await deps.repos.uploads.findOwnedByUrl(userId, scene.url)))
          throw badRequest(`${what}已删除，编辑器无法保留视频的原画面，请重新上传后重新生成视频`);
        const footage: Footage | undefined = clip
          ? {
              materialId: clip.assetId,
              loop: { startMs: 0, endMs: clip.durationMs },
              speed: 1,
              fromPart: parts.length,
            }
          : undefined;
        for (const line of scene.lines) {
          parts.push({
            cues: line.sentences.length,
            segment: {
              text: textOf(line.sentences),
              ...(clip ? {} : { imageUrl: scene.url }),
              ...speakerVoice(video.voices, line.speaker, video.speed),
              speaker: line.speaker,
            },
            ...(footage ? { footage } : {}),
          });
        }
      }
      const voiceId = parts.find((part) => part.segment.voiceId)?.segment.voiceId;
      return voiceId ? { parts, voiceId } : null;
    }
    default:
      return null;
  }
}

/** Windows shorter than this are not worth starting (compose-segments' MIN_WINDOW_MS). */
const MIN_WINDOW_MS = 100;
/** A window a little longer than shown: the composer cuts frames, it never needs to loop. */
const WINDOW_SLACK_MS = 50;

/**
 * The window of the footage a segment shows: where the loop had got to when the segment began
 * in the video, for as long as the segment was shown. A segment that ran past the loop's end
 * keeps to the end (the merge then repeats its window for the rest).
 */
function windowOf(
  footage: Footage,
  atMs: number,
  shownMs: number,
): { startMs: number; endMs: number } {
  const { loop, speed } = footage;
  const length = loop.endMs - loop.startMs;
  if (length <= MIN_WINDOW_MS) return { ...loop };
  let offset = (Math.max(0, atMs) * speed) % length;
  if (length - offset < MIN_WINDOW_MS) offset = 0;
  const startMs = Math.floor(loop.startMs + offset);
  const endMs = Math.min(loop.endMs, Math.ceil(startMs + (shownMs + WINDOW_SLACK_MS) * speed));
  return { startMs, endMs };
}

/** A work's newest finished video as the editor reads it. */
export interface FinishedVideo {
  outputs: Narrated;
  /** Where its segments' voices are cut to: `<userId>/<taskId>/cut/`. */
  voices: string;
}

/** The work's newest finished video; null: none, or one this release cannot read. */
export async function newestVideo(
  deps: Pick<CutFromVideoDeps, 'repos'>,
  userId: number,
  workId: number,
): Promise<FinishedVideo | null> {
  const outputs = read(
    NarratedSchema,
    await deps.repos.videoTasks.latestVideoOutputs(userId, workId),
  );
  if (!outputs) return null;
  return { outputs, voices: `${path.posix.dirname(keyOf(outputs.narration))}/cut/` };
}

/** Whether these segments were made from that video (their voices are its pieces). */
export const madeFrom = (video: FinishedVideo, segments: StoredCutSegment[]): boolean =>
  segments.some((segment) => keyOf(segment.audio).startsWith(video.voices));

/**
 * The cut data of a finished video of the work, its segments' audio stored beside its
 * narration (`<userId>/<taskId>/cut/segment-NNN.wav`, the same bytes whoever asks first);
 * null when its outputs are not what its type's pipeline stores (the caller then starts from
 * the work's text and shots, unspoken).
 */
export async function cutOfFinishedVideo(
  deps: CutFromVideoDeps,
  userId: number,
  work: WorkDetail,
  video: FinishedVideo,
): Promise<{ segments: StoredCutSegment[]; voiceId: string } | null> {
  const narrated = video.outputs;
  const made = await partsOf(deps, userId, work, narrated);
  const parts = made?.parts ?? [];
  const cues = narrated.cues;
  // Every cue said by one segment, in order, or the outputs are not what they seem.
  if (
    !made ||
    parts.length === 0 ||
    parts.some((part) => part.cues <= 0 || !part.segment.text) ||
    parts.reduce((n, p) => n + p.cues, 0) !== cues.length
  )
    return null;
  const file = await deps.stores.media.cached(keyOf(narrated.narration));
  if (!file) return null;
  const narration = parseWav(await readFile(file));

  // Each segment's voice: from its first cue's start (the first segment's from 0) to its last
  // one's end. That start is also when it began in the video: the pause before a segment
  // belongs to the one before it, as the merge times them.
  let at = 0;
  const spans = parts.map((part) => {
    const span = {
      startMs: at === 0 ? 0 : (cues[at]?.startMs ?? 0),
      endMs: cues[at + part.cues - 1]?.endMs ?? 0,
    };
    at += part.cues;
    return span;
  });
  const startOf = (i: number) => spans[i]?.startMs ?? narrated.durationMs;
  return {
    voiceId: made.voiceId,
    segments: await mapLimit(parts, 4, async (part, i): Promise<StoredCutSegment> => {
      const piece = slicePcm(narration, startOf(i), spans[i]?.endMs ?? 0);
      const audio = `${video.voices}segment-${String(i).padStart(3, '0')}.wav`;
      await deps.stores.media.putBytes(audio, encodeWav(piece), 'audio/wav');
      const footage = part.footage;
      const window = footage
        ? windowOf(footage, startOf(i) - startOf(footage.fromPart), startOf(i + 1) - startOf(i))
        : { startMs: 0, endMs: 0 };
      return {
        ...part.segment,
        materialId: footage?.materialId ?? null,
        ...window,
        audio,
        audioDurationMs: pcmDurationMs(piece),
      };
    }),
  };
}
