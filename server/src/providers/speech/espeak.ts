import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import {
  DEFAULT_EN_VOICE_ID,
  DEFAULT_ZH_VOICE_ID,
  SENTENCE_PAUSE_MS,
} from '@kol/shared-sdk/contracts';
import { findRepoRoot } from '../../paths';
import { joinSpoken, parseWav, pcmDurationMs, writeWav, type Pcm } from './wav';

export const ESPEAK_ENGINE = 'espeak-ng（离线）';

export interface Voice {
  voiceId: string;
  name: string;
  language: 'zh' | 'en';
  gender: 'female' | 'male';
  engine: string;
}

interface VoiceSpec extends Voice {
  /** espeak-ng voice plus variant (`+f3` etc. are espeak's built-in variants). */
  espeak: string;
  pitch: number;
}

const VOICES: VoiceSpec[] = [
  {
    voiceId: 'espeak-cmn-f',
    name: '普通话 女声',
    language: 'zh',
    gender: 'female',
    espeak: 'cmn+f3',
    pitch: 60,
  },
  {
    voiceId: 'espeak-cmn-m',
    name: '普通话 男声',
    language: 'zh',
    gender: 'male',
    espeak: 'cmn+m3',
    pitch: 45,
  },
  {
    voiceId: 'espeak-en-us-f',
    name: '美式英语 女声',
    language: 'en',
    gender: 'female',
    espeak: 'en-us+f3',
    pitch: 55,
  },
  {
    voiceId: 'espeak-en-us-m',
    name: '美式英语 男声',
    language: 'en',
    gender: 'male',
    espeak: 'en-us+m3',
    pitch: 45,
  },
].map((v) => ({ ...v, engine: ESPEAK_ENGINE }) as VoiceSpec);

/** The offline voices, for `tts_list`. */
export function listVoices(): Voice[] {
  return VOICES.map(({ voiceId, name, language, gender, engine }) => ({
    voiceId,
    name,
    language,
    gender,
    engine,
  }));
}

export const DEFAULT_VOICE_ID = DEFAULT_ZH_VOICE_ID;
/** The offline English voice overseas types speak when the work names none. */
export const ENGLISH_VOICE_ID = DEFAULT_EN_VOICE_ID;
/** espeak-ng's own default rate; `speed` multiplies it. */
const BASE_WPM = 175;

function voiceSpec(voiceId: string): VoiceSpec {
  const spec = VOICES.find((v) => v.voiceId === voiceId);
  if (!spec) throw new Error(`未知的离线音色：${voiceId}`);
  return spec;
}

const WORKER = (): string =>
  path.join(findRepoRoot(), 'server', 'src', 'providers', 'speech', 'espeak-worker.mjs');

interface Job {
  text: string;
  voice: string;
  wpm: number;
  pitch: number;
  outPath: string;
}

/** One child process per batch: node start plus WebAssembly load dominate a single short call. */
function runWorker(jobs: Job[], timeoutMs = 120_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER()], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('离线语音合成超时'));
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`无法启动离线语音进程：${err.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').pop() ?? '';
      let reply: { ok?: boolean; error?: string } = {};
      try {
        reply = JSON.parse(last) as typeof reply;
      } catch {
        // fall through: reported below with stderr
      }
      if (code === 0 && reply.ok) resolve();
      else
        reject(
          new Error(
            `离线语音合成失败：${reply.error ?? (stderr.trim().slice(-300) || `退出码 ${code}`)}`,
          ),
        );
    });
    child.stdin.end(JSON.stringify({ jobs }));
  });
}

export interface SpeechOptions {
  voiceId?: string;
  /** 1 = normal; 0.5 to 2. */
  speed?: number;
}

function jobFor(text: string, outPath: string, options: SpeechOptions): Job {
  const spec = voiceSpec(options.voiceId ?? DEFAULT_VOICE_ID);
  const speed = Math.min(2, Math.max(0.5, options.speed ?? 1));
  return {
    text,
    voice: spec.espeak,
    wpm: Math.round(BASE_WPM * speed),
    pitch: spec.pitch,
    outPath,
  };
}

/** Synthesises one text to a WAV (written under a temp name, renamed when whole). */
export async function synthesize(
  text: string,
  outPath: string,
  options: SpeechOptions = {},
): Promise<{ wavPath: string; durationMs: number }> {
  await mkdir(path.dirname(outPath), { recursive: true });
  const tmp = `${outPath}.part-${randomBytes(4).toString('hex')}.wav`;
  try {
    await runWorker([jobFor(text, tmp, options)]);
    const pcm = parseWav(await readFile(tmp));
    const durationMs = pcmDurationMs(pcm);
    if (durationMs <= 0) throw new Error('离线语音合成结果为空');
    await writeWav(outPath, pcm);
    return { wavPath: outPath, durationMs };
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/** The pause between sentences of a narration (every engine joins its sentences with it). */
export { SENTENCE_PAUSE_MS };

export interface SpokenSegment {
  text: string;
  startMs: number;
  endMs: number;
}

/**
 * Synthesises each sentence separately and joins them with a short pause. Sentence-by-sentence
 * synthesis gives exact caption timing (no guessing from character counts) at the cost of
 * espeak's cross-sentence prosody, which it barely has anyway.
 */
export async function synthesizeSentences(
  sentences: string[],
  outPath: string,
  options: SpeechOptions & { pauseMs?: number } = {},
): Promise<{ wavPath: string; durationMs: number; segments: SpokenSegment[] }> {
  if (sentences.length === 0) throw new Error('没有可朗读的文字');
  await mkdir(path.dirname(outPath), { recursive: true });
  const tag = randomBytes(4).toString('hex');
  const parts = sentences.map((_, i) => `${outPath}.s${i}-${tag}.wav`);
  try {
    await runWorker(sentences.map((s, i) => jobFor(s, parts[i] ?? '', options)));
    const pcms: Pcm[] = [];
    for (const p of parts) pcms.push(parseWav(await readFile(p)));
    const {
      pcm: joined,
      durationMs,
      segments,
    } = joinSpoken(pcms, sentences, options.pauseMs ?? SENTENCE_PAUSE_MS);
    const tmp = `${outPath}.part-${tag}.wav`;
    await writeWav(tmp, joined);
    await rename(tmp, outPath);
    return { wavPath: outPath, durationMs, segments };
  } finally {
    await Promise.all(parts.map((p) => unlink(p).catch(() => undefined)));
  }
}
