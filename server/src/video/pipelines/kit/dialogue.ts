import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { StageError } from '../../../tasks/errors';
import { runFfmpeg } from '../../engine/ffmpeg';
import { listVoices, SENTENCE_PAUSE_MS } from '../../../providers/speech/espeak';
import type { Speech } from '../../../providers/speech';
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
 * Speed factors for speakers beyond the offline voices: with two Mandarin voices, the third
 * character reuses the first voice, a little faster, so no two characters sound the same.
 */
const VARIANT_SPEEDS = [1, 1.15, 0.87, 1.3, 0.77];

/**
 * Voices of the speakers, in order of first appearance. A speaker the user gave a voice keeps
 * it; the others get the offline Mandarin voices not taken yet, alternating female and male,
 * and once those run out the same voices again at another speed.
 */
export function assignVoices(
  speakers: string[],
  chosen: Record<string, string>,
  isKnown: (voiceId: string) => boolean,
): Record<string, SpeakerVoice> {
  const zh = listVoices().filter((v) => v.language === 'zh');
  const female = zh.filter((v) => v.gender === 'female');
  const male = zh.filter((v) => v.gender === 'male');
  const alternating: string[] = [];
  for (let i = 0; i < Math.max(female.length, male.length); i++) {
    const f = female[i];
    const m = male[i];
    if (f) alternating.push(f.voiceId);
    if (m) alternating.push(m.voiceId);
  }
  const result: Record<string, SpeakerVoice> = {};
  // How often each voice is used so far: its next user gets the next speed variant.
  const uses = new Map<string, number>();
  const take = (voiceId: string): SpeakerVoice => {
    const n = uses.get(voiceId) ?? 0;
    uses.set(voiceId, n + 1);
    return { voiceId, speedFactor: VARIANT_SPEEDS[n % VARIANT_SPEEDS.length] ?? 1 };
  };
  const unassigned: string[] = [];
  for (const speaker of speakers) {
    const voiceId = chosen[speaker];
    if (voiceId && isKnown(voiceId)) result[speaker] = take(voiceId);
    else unassigned.push(speaker);
  }
  for (const speaker of unassigned) {
    // The least used voice, earliest in the alternating order on a tie.
    const voiceId = [...alternating].sort((a, b) => (uses.get(a) ?? 0) - (uses.get(b) ?? 0))[0];
    if (!voiceId) throw new StageError('没有可用的离线中文音色');
    result[speaker] = take(voiceId);
  }
  return result;
}

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
