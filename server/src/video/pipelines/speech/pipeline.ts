import { open, readFile, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { Type } from 'typebox';
import { ProjectType } from '@kol/shared-sdk/contracts';
import { StageError, UserInputError } from '../../../tasks/errors';
import { defineStage } from '../../../tasks/stage';
import type { StageContext, StageHandler } from '../../../tasks/types';
import { splitSentences } from '../../engine/captions';
import { ffmpegToFile, probeWithFfmpeg } from '../../engine/ffmpeg';
import {
  checkAborted,
  cleanScript,
  exists,
  mediaUrl,
  num,
  str,
  taskFiles,
  type MediaPipelineOptions,
} from '../kit/pipeline';
import { speakOrFail } from '../kit/voice';
import { SENTENCE_PAUSE_MS } from '../../../providers/speech/espeak';
import { encodeWav, parseWav, silence, type Pcm } from '../../../providers/speech/wav';

/**
 * async_tts_try: a long text spoken into one WAV (and an MP3 to download), as a 'speech' task
 * of no work. Registered for every project type (ANY_TYPE); started with this type, which only
 * has to be a valid one: a speech task spends no count.
 */
export const SPEECH_TASK_TYPE = ProjectType.comics;

/** The longest text async_tts_try takes (the contract says the same). */
export const LONG_SPEECH_MAX_CHARS = 100_000;

/**
 * Sentences per chunk: a chunk is one synthesis call and one file on disk, so a resumed task
 * redoes at most one chunk, and progress moves chunk by chunk.
 */
const CHUNK_CHARS = 400;

export function chunkSentences(sentences: string[], maxChars = CHUNK_CHARS): string[][] {
  const chunks: string[][] = [];
  let current: string[] = [];
  let chars = 0;
  for (const sentence of sentences) {
    if (current.length > 0 && chars + sentence.length > maxChars) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(sentence);
    chars += sentence.length;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Joins the chunk WAVs with the sentence pause between them, streaming to disk: a 100 000
 * character text is hours of audio, more than should sit in memory. Every chunk must already
 * have the format of `like`.
 */
async function joinChunkFiles(files: string[], like: Omit<Pcm, 'data'>, outPath: string) {
  const gap = silence(like, SENTENCE_PAUSE_MS);
  const sizes = await Promise.all(files.map(async (f) => parseWav(await readFile(f)).data.length));
  const dataBytes = sizes.reduce((a, b) => a + b, 0) + gap.length * (files.length - 1);
  const tmp = `${outPath}.part.wav`;
  const handle = await open(tmp, 'w');
  try {
    // The header of the whole file: encodeWav of an empty PCM, with the real data size patched in.
    const header = encodeWav({ ...like, data: Buffer.alloc(0) });
    header.writeUInt32LE(36 + dataBytes, 4);
    header.writeUInt32LE(dataBytes, 40);
    await handle.write(header);
    for (const [i, file] of files.entries()) {
      if (i > 0) await handle.write(gap);
      await handle.write(parseWav(await readFile(file)).data);
    }
  } finally {
    await handle.close();
  }
  await rename(tmp, outPath);
  const bytesPerSecond = like.sampleRate * like.channels * (like.bitsPerSample / 8);
  return Math.round((dataBytes / bytesPerSecond) * 1000);
}

/** A chunk whose format differs from the first (a provider chunk beside an offline one) is converted. */
async function conform(file: string, like: Omit<Pcm, 'data'>): Promise<void> {
  const pcm = parseWav(await readFile(file));
  if (
    pcm.sampleRate === like.sampleRate &&
    pcm.channels === like.channels &&
    pcm.bitsPerSample === like.bitsPerSample
  )
    return;
  const converted = `${file}.conformed.wav`;
  await ffmpegToFile(
    ['-i', file, '-ar', String(like.sampleRate), '-ac', String(like.channels), '-c:a', 'pcm_s16le'],
    converted,
  );
  await rename(converted, file);
}

/**
 * The 'speech' task: `voice` speaks the text chunk by chunk (a chunk written whole is kept
 * across a restart), then joins the chunks; `export` encodes the MP3. Files go to
 * `<mediaDir>/<userId>/<taskId>/`, served to their owner only.
 */
export function speechTryPipeline(options: MediaPipelineOptions): StageHandler[] {
  const abs = (relative: string) => path.join(options.mediaDir, relative);
  const rel = (ctx: StageContext, ...parts: string[]) => taskFiles(options, ctx).rel(...parts);

  const voice = defineStage({
    name: 'voice',
    weight: 10,
    output: Type.Object({
      /** The joined speech, relative to the media dir. */
      wav: Type.String(),
      wavUrl: Type.String(),
      durationMs: Type.Number(),
      chunks: Type.Number(),
      engine: Type.String(),
      note: Type.String(),
    }),
    async run(ctx) {
      const text = cleanScript(str(ctx.task.input.text));
      const sentences = splitSentences(text);
      if (sentences.length === 0) throw new UserInputError('「配音文本」中没有可朗读的文字');
      const voiceId = str(ctx.task.input.voiceId);
      const speed = num(ctx.task.input.speed, 1);
      const chunks = chunkSentences(sentences);
      const files: string[] = [];
      const notes = new Set<string>();
      const engines = new Set<string>();
      for (const [i, chunk] of chunks.entries()) {
        checkAborted(ctx.signal);
        const file = abs(rel(ctx, 'parts', `part-${String(i).padStart(4, '0')}.wav`));
        if (!(await exists(file))) {
          const spoken = await speakOrFail(
            options,
            ctx,
            chunk,
            file,
            { voiceId, speed },
            { message: `第 ${i + 1} 段语音合成失败，请稍后重试` },
          );
          engines.add(spoken.engine);
          if (spoken.note) notes.add(spoken.note);
        }
        files.push(file);
        // The join below is quick next to synthesis: chunks are 95% of the stage.
        ctx.reportProgress(((i + 1) / chunks.length) * 95);
      }
      const first = parseWav(await readFile(files[0] ?? ''));
      const like = { sampleRate: first.sampleRate, channels: first.channels, bitsPerSample: 16 };
      for (const file of files) await conform(file, like);
      const relative = rel(ctx, 'speech.wav');
      const durationMs = await joinChunkFiles(files, like, abs(relative));
      ctx.reportProgress(100);
      return {
        wav: relative,
        wavUrl: mediaUrl(relative),
        durationMs,
        chunks: chunks.length,
        engine: [...engines].join('、'),
        note: [...notes].join('；'),
      };
    },
  });

  const exportMp3 = defineStage({
    name: 'export',
    label: '导出',
    weight: 1,
    output: Type.Object({ mp3: Type.String(), audioUrl: Type.String() }),
    async run(ctx) {
      const spoken = voice.output(ctx);
      const wav = abs(spoken.wav);
      if (!(await stat(wav).catch(() => null))) throw new StageError('配音文件丢失，请重新生成');
      const relative = rel(ctx, 'speech.mp3');
      const expected = spoken.durationMs;
      await ffmpegToFile(['-i', wav, '-c:a', 'libmp3lame', '-b:a', '128k'], abs(relative), {
        // A truncated encode is a failure, not a shorter download.
        validate: async (tmp) => {
          const info = await probeWithFfmpeg(tmp);
          if (!info.durationMs || Math.abs(info.durationMs - expected) > 1000)
            throw new Error(`mp3 duration ${info.durationMs} != ${expected}`);
        },
      }).catch((error: unknown) => {
        throw new StageError('MP3 导出失败，请稍后重试', { provider: 'ffmpeg', cause: error });
      });
      ctx.reportProgress(100);
      return { mp3: relative, audioUrl: mediaUrl(relative) };
    },
  });

  return [voice, exportMp3];
}
