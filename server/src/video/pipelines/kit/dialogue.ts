import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { StageError } from '../../../tasks/errors';
import { runFfmpeg } from '../../engine/ffmpeg';
import { listVoices, SENTENCE_PAUSE_MS } from '../../../providers/speech/espeak';
import type { Speech } from '../../../providers/speech';
import {
  VOICE_VARIANT_SPEEDS,
  defaultVoices,
  speakerGenders,
  type Gender,
} from '@kol/shared-sdk/contracts';
import { joinSpoken, parseWav, slicePcm, writeWav, type Pcm } from '../../../providers/speech/wav';

/**
 * Speech of several characters, each in their own voice (the real-person drama and the anime
 * short): who speaks with which voice, and one narration WAV with a timing per line.
 */

/** One sentence of one character, in speaking order. */
export interface DialogueLine {
  speaker: string;
  text: string;
}

export interface SpokenDialogue {
  durationMs: number;
  /** Per line, in order: the caption text (see `caption`) and its time in the WAV. */
  segments: Array<{ text: string; startMs: number; endMs: number }>;
}

/** A speaker's voice: a voice id, and a speed factor that tells apart two on the same voice. */
export interface SpeakerVoice {
  voiceId: string;
  speedFactor: number;
}

/**
 * Voices of the speakers, in order of first appearance (the rule is the SDK's defaultVoices,
 * which the voice pages preselect with too). A speaker the user gave a voice keeps it; the
 * others get the least used offline Mandarin voice of their gender (`genderOf`: from the work's
 * roles, see speakerGenders), female and male alternating only for an unknown gender; a voice
 * used again is spoken at another speed, so no two characters sound the same.
 */
export function assignVoices(
  speakers: string[],
  chosen: Record<string, string>,
  isKnown: (voiceId: string) => boolean,
  genderOf: (speaker: string) => Gender | null | undefined = () => null,
): Record<string, SpeakerVoice> {
  const zh = listVoices().filter((v) => v.language === 'zh');
  // A chosen voice may be any engine's (a provider's); the defaults are the offline ones.
  const picked = defaultVoices(speakers, chosen, zh, genderOf, isKnown);
  const result: Record<string, SpeakerVoice> = {};
  for (const speaker of speakers) {
    const voice = picked[speaker];
    if (!voice) throw new StageError('没有可用的离线中文音色');
    result[speaker] = {
      voiceId: voice.voiceId,
      speedFactor: VOICE_VARIANT_SPEEDS[voice.nth % VOICE_VARIANT_SPEEDS.length] ?? 1,
    };
  }
  return result;
}

/** Each speaker's gender (the SDK's rule, which the pages preselect and estimate with). */
export { speakerGenders };

/** Converts a WAV to the PCM format of `like` (when a provider voice and espeak are mixed). */
export async function pcmLike(file: string, like: Omit<Pcm, 'data'> | null): Promise<Pcm> {
  const pcm = parseWav(await readFile(file));
  if (
    !like ||
    (pcm.sampleRate === like.sampleRate &&
      pcm.channels === like.channels &&
      pcm.bitsPerSample === like.bitsPerSample)
  )
    return pcm;
  const out = `${file}.conv-${randomBytes(4).toString('hex')}.wav`;
  try {
    await runFfmpeg([
      '-i',
      file,
      '-ar',
      String(like.sampleRate),
      '-ac',
      String(like.channels),
      '-c:a',
      like.bitsPerSample === 16 ? 'pcm_s16le' : `pcm_s${like.bitsPerSample}le`,
      out,
    ]);
    return parseWav(await readFile(out));
  } finally {
    await unlink(out).catch(() => undefined);
  }
}

/**
 * Speaks the lines into `outWav`: each speaker's sentences in one batch with that voice, no
 * pause (one synthesis per voice, not per line), then cut apart at the batch's own sentence
 * timings and interleaved back into speaking order with the usual pause between lines.
 */
export async function speakDialogue(
  lines: DialogueLine[],
  voices: Record<string, SpeakerVoice>,
  outWav: string,
  options: {
    speed: number;
    signal: AbortSignal;
    speech: Speech;
    /** The caption of a line (e.g. 「角色：台词」, or the bare line for a narrator). */
    caption: (line: DialogueLine) => string;
    /** 0 to 100 as the voices are done. */
    onProgress?: (percent: number) => void;
  },
): Promise<SpokenDialogue> {
  const speakers = [...new Set(lines.map((o) => o.speaker))];
  await mkdir(path.dirname(outWav), { recursive: true });
  const pieces = new Map<string, Pcm[]>();
  let format: Omit<Pcm, 'data'> | null = null;
  for (const [n, speaker] of speakers.entries()) {
    if (options.signal.aborted) throw new Error(`aborted: ${String(options.signal.reason)}`);
    const v = voices[speaker];
    if (!v) throw new StageError(`角色「${speaker}」没有音色，请重新生成`);
    const sentences = lines.filter((o) => o.speaker === speaker).map((o) => o.text);
    const batch = `${outWav}.speaker-${n}.wav`;
    try {
      const spoken = await options.speech
        .speak(sentences, batch, {
          voiceId: v.voiceId,
          speed: Math.min(2, Math.max(0.5, options.speed * v.speedFactor)),
          pauseMs: 0,
          signal: options.signal,
        })
        .catch((error: unknown) => {
          throw new StageError(`角色「${speaker}」的配音合成失败，请稍后重试`, {
            provider: 'espeak-ng',
            cause: error,
          });
        });
      const pcm = await pcmLike(batch, format);
      format ??= {
        sampleRate: pcm.sampleRate,
        channels: pcm.channels,
        bitsPerSample: pcm.bitsPerSample,
      };
      pieces.set(
        speaker,
        spoken.segments.map((s) => slicePcm(pcm, s.startMs, s.endMs)),
      );
    } finally {
      await unlink(batch).catch(() => undefined);
    }
    options.onProgress?.(((n + 1) / speakers.length) * 100);
  }
  const taken = new Map<string, number>();
  const pcms = lines.map((o) => {
    const i = taken.get(o.speaker) ?? 0;
    taken.set(o.speaker, i + 1);
    const pcm = pieces.get(o.speaker)?.[i];
    if (!pcm) throw new StageError(`角色「${o.speaker}」的配音不完整，请重新生成`);
    return pcm;
  });
  const joined = joinSpoken(pcms, lines.map(options.caption), SENTENCE_PAUSE_MS);
  const tmp = `${outWav}.part-${randomBytes(4).toString('hex')}.wav`;
  await writeWav(tmp, joined.pcm);
  await rename(tmp, outWav);
  return { durationMs: joined.durationMs, segments: joined.segments };
}
