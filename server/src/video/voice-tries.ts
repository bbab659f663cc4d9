import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AudioClip, SpeechClip } from '@kol/shared-sdk/contracts';
import type { Speech } from '../providers/speech';
import type { MediaStore } from '../storage';
import { UserInputError } from '../tasks/errors';
import { ffmpegToFile } from './engine/ffmpeg';
import { keepInStore } from '../uploads/keep';
import { mediaUrl } from './pipelines/kit/pipeline';

/** A try is a sample: a long text would hold a child process for a minute for nothing. */
export const TRY_MAX_CHARS = 300;

/** The voice of a request; an unknown one is the user's mistake (answered 400). */
export function requireVoice(speech: Pick<Speech, 'findVoice'>, voiceId: string) {
  const voice = speech.findVoice(voiceId);
  if (!voice) throw new UserInputError('「配音」音色不存在，请从音色列表中选择');
  return voice;
}

/** Where voice tries go: the media store and the folder they are spoken into first. */
export interface TryMedia {
  store: MediaStore;
  /** AppConfig.mediaDir: the store's own folder, or this process's cache folder with S3. */
  dir: string;
}

/**
 * tts_try / tts_audition: speaks a short text into `<userId>/tts/<random>.wav` of the media
 * store and answers its `/media/` URL, which any API process then serves. Random names: a
 * user's tries never overwrite each other. A provider voice that fails is spoken by the
 * offline voice (providers/speech/index.ts), and the answer's `note` says so.
 */
export async function synthesizeTry(
  speech: Speech,
  media: TryMedia,
  userId: number,
  body: { text: string; voiceId: string; speed?: number },
): Promise<AudioClip> {
  const { clip } = await speakTry(speech, media, userId, body);
  return clip;
}

/**
 * tts_try of the speech tool: the try as above, and the same speech as MP3 beside the WAV
 * (`<random>.mp3`), so a short speech offers the downloads a long one does (async_tts_try's
 * MP3 and WAV). The video's auditions (tts_audition) only play, so they skip the encode.
 */
export async function synthesizeSpeechTry(
  speech: Speech,
  media: TryMedia,
  userId: number,
  body: { text: string; voiceId: string; speed?: number },
): Promise<SpeechClip> {
  const { clip, key, file } = await speakTry(speech, media, userId, body, { keepLocal: true });
  const mp3Key = key.replace(/\.wav$/, '.mp3');
  const mp3File = path.join(media.dir, ...mp3Key.split('/'));
  try {
    // A failed encode is the server's fault: logged and answered as such, not a WAV alone.
    await ffmpegToFile(['-i', file, '-c:a', 'libmp3lame', '-b:a', '128k'], mp3File);
  } finally {
    await keepInStore(media.store, key, file);
  }
  await keepInStore(media.store, mp3Key, mp3File);
  return { ...clip, mp3Url: mediaUrl(mp3Key) };
}

async function speakTry(
  speech: Speech,
  media: TryMedia,
  userId: number,
  body: { text: string; voiceId: string; speed?: number },
  options: { keepLocal?: boolean } = {},
): Promise<{ clip: AudioClip; key: string; file: string }> {
  requireVoice(speech, body.voiceId);
  const text = body.text.trim().slice(0, TRY_MAX_CHARS);
  if (!/[\p{L}\p{N}]/u.test(text)) throw new UserInputError('请输入要试听的文字');
  const key = `${userId}/tts/${randomBytes(12).toString('hex')}.wav`;
  const file = path.join(media.dir, ...key.split('/'));
  const { durationMs, engine, note } = await speech.speak([text], file, {
    voiceId: body.voiceId,
    ...(body.speed !== undefined ? { speed: body.speed } : {}),
  });
  // The MP3 is encoded from the local WAV first: with S3 keeping it removes the local copy.
  if (!options.keepLocal) await keepInStore(media.store, key, file);
  // Which engine spoke, and a note when the offline voice stood in: the page says so.
  const clip = {
    audioUrl: mediaUrl(key),
    durationMs: Math.round(durationMs),
    engine,
    ...(note ? { note } : {}),
  };
  return { clip, key, file };
}
