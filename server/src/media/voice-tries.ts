import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AudioClip } from '@kol/shared-sdk/contracts';
import { badRequest } from '../http/api-error';
import { mediaUrl } from './comics-pipeline';
import { listVoices, synthesize } from './speech/espeak';

/** A try is a sample: a long text would hold a child process for a minute for nothing. */
export const TRY_MAX_CHARS = 300;

/**
 * tts_try / tts_audition: speaks a short text into `<mediaDir>/<userId>/tts/<random>.wav` and
 * answers its `/media/` URL. Random names: a user's tries never overwrite each other.
 */
export async function synthesizeTry(
  mediaDir: string,
  userId: number,
  body: { text: string; voiceId: string; speed?: number },
): Promise<AudioClip> {
  if (!listVoices().some((voice) => voice.voiceId === body.voiceId)) {
    throw badRequest('未知的配音音色，请从音色列表中选择');
  }
  const text = body.text.trim().slice(0, TRY_MAX_CHARS);
  if (!/[\p{L}\p{N}]/u.test(text)) throw badRequest('请输入要试听的文字');
  const relative = path.join(String(userId), 'tts', `${randomBytes(12).toString('hex')}.wav`);
  const { durationMs } = await synthesize(text, path.join(mediaDir, relative), {
    voiceId: body.voiceId,
    ...(body.speed !== undefined ? { speed: body.speed } : {}),
  });
  return { audioUrl: mediaUrl(relative), durationMs: Math.round(durationMs) };
}
