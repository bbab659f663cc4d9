import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { AudioClip } from '@kol/shared-sdk/contracts';
import type { TtsConfig } from '../config';
import { badRequest } from '../http/api-error';
import { mediaUrl } from './pipeline-kit';
import { findVoice, speakSentences } from './speech';

/** A try is a sample: a long text would hold a child process for a minute for nothing. */
export const TRY_MAX_CHARS = 300;

/** What a try needs of the AppConfig (the whole AppConfig fits). */
export interface VoiceTrySettings {
  mediaDir: string;
  tts?: TtsConfig | null;
}

/** The voice of a request, or 400 naming the problem. */
export function requireVoice(tts: TtsConfig | null | undefined, voiceId: string) {
  const voice = findVoice(tts, voiceId);
  if (!voice) throw badRequest('「配音」音色不存在，请从音色列表中选择');
  return voice;
}

/**
 * tts_try / tts_audition: speaks a short text into `<mediaDir>/<userId>/tts/<random>.wav` and
 * answers its `/media/` URL. Random names: a user's tries never overwrite each other. A
 * provider voice that fails is spoken by the offline voice (speech/index.ts).
 */
export async function synthesizeTry(
  // A bare media dir: the offline voices only (callers not yet passing the AppConfig).
  settings: VoiceTrySettings | string,
  userId: number,
  body: { text: string; voiceId: string; speed?: number },
): Promise<AudioClip> {
  const { mediaDir, tts } = typeof settings === 'string' ? { mediaDir: settings } : settings;
  requireVoice(tts, body.voiceId);
  const text = body.text.trim().slice(0, TRY_MAX_CHARS);
  if (!/[\p{L}\p{N}]/u.test(text)) throw badRequest('请输入要试听的文字');
  const relative = path.join(String(userId), 'tts', `${randomBytes(12).toString('hex')}.wav`);
  const { durationMs } = await speakSentences([text], path.join(mediaDir, relative), {
    voiceId: body.voiceId,
    tts: tts ?? null,
    ...(body.speed !== undefined ? { speed: body.speed } : {}),
  });
  return { audioUrl: mediaUrl(relative), durationMs: Math.round(durationMs) };
}
