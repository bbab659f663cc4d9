import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AudioClip } from '@kol/shared-sdk/contracts';
import type { Speech } from '../providers/speech';
import type { MediaStore } from '../storage';
import { UserInputError } from '../tasks/errors';
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
  requireVoice(speech, body.voiceId);
  const text = body.text.trim().slice(0, TRY_MAX_CHARS);
  if (!/[\p{L}\p{N}]/u.test(text)) throw new UserInputError('请输入要试听的文字');
  const key = `${userId}/tts/${randomBytes(12).toString('hex')}.wav`;
  const file = path.join(media.dir, ...key.split('/'));
  const { durationMs, engine, note } = await speech.speak([text], file, {
    voiceId: body.voiceId,
    ...(body.speed !== undefined ? { speed: body.speed } : {}),
  });
  await keepInStore(media.store, key, file);
  // Which engine spoke, and a note when the offline voice stood in: the page says so.
  return {
    audioUrl: mediaUrl(key),
    durationMs: Math.round(durationMs),
    engine,
    ...(note ? { note } : {}),
  };
}
