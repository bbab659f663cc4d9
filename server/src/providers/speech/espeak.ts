import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink } from 'node:fs/promises';
import os from 'node:os';
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

/** A batch waiting for its worker's answer line. */
interface Pending {
  resolve: () => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** One espeak child process: takes a batch at a time, answers each with one JSON line. */
interface EspeakWorker {
  child: ChildProcessWithoutNullStreams;
  pending: Pending | null;
  idleTimer: NodeJS.Timeout | null;
  stderr: string;
  /** Out of the pool for good (ended, failed or timed out). */
  gone: boolean;
}

/**
 * Worker processes kept between batches: starting node and the 18 MB WebAssembly module cost
 * about half a second a batch, paid by every narration and every sentence of the speech tool.
 * At most one per core (the render stages that speak run at most that many at once); an idle
 * one ends after IDLE_MS, and none keeps the server's event loop alive while idle.
 */
const MAX_WORKERS = Math.max(1, Math.min(4, os.availableParallelism()));
const IDLE_MS = 30_000;
const idle: EspeakWorker[] = [];
let alive = 0;
const waiting: Array<(worker: EspeakWorker) => void> = [];

function holdOpen(worker: EspeakWorker, held: boolean): void {
  const method = held ? 'ref' : 'unref';
  worker.child[method]();
  for (const stream of [worker.child.stdin, worker.child.stdout, worker.child.stderr]) {
    (stream as unknown as { ref?: () => void; unref?: () => void })[method]?.();
  }
}

function settle(worker: EspeakWorker, error: Error | null): void {
  const pending = worker.pending;
  if (!pending) return;
  worker.pending = null;
  clearTimeout(pending.timer);
  if (error) pending.reject(error);
  else pending.resolve();
}

function startWorker(): EspeakWorker {
  alive += 1;
  const child = spawn(process.execPath, [WORKER()], { stdio: ['pipe', 'pipe', 'pipe'] });
  const worker: EspeakWorker = { child, pending: null, idleTimer: null, stderr: '', gone: false };
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    let newline = stdout.indexOf('\n');
    while (newline !== -1) {
      const line = stdout.slice(0, newline).trim();
      stdout = stdout.slice(newline + 1);
      newline = stdout.indexOf('\n');
      let reply: { ok?: boolean; error?: string } = {};
      try {
        reply = JSON.parse(line) as typeof reply;
      } catch {
        continue;
      }
      const stderr = worker.stderr.trim().slice(-300);
      worker.stderr = '';
      settle(worker, reply.ok ? null : new Error(`离线语音合成失败：${reply.error ?? stderr}`));
      release(worker);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    worker.stderr = (worker.stderr + chunk.toString('utf8')).slice(-2_000);
  });
  child.stdin.on('error', () => undefined);
  const ended = (reason: string) => {
    if (!forget(worker)) return;
    settle(
      worker,
      new WorkerDied(`离线语音合成失败：${worker.stderr.trim().slice(-300) || reason}`),
    );
  };
  child.on('error', (err) => ended(`无法启动离线语音进程：${err.message}`));
  child.on('exit', (code, signal) => ended(`离线语音进程退出（${signal ?? `退出码 ${code}`}）`));
  return worker;
}

/** Takes a worker out of the pool for good; false when it was out already. */
function forget(worker: EspeakWorker): boolean {
  if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill();
  if (worker.idleTimer) clearTimeout(worker.idleTimer);
  const index = idle.indexOf(worker);
  if (index !== -1) idle.splice(index, 1);
  if (worker.gone) return false;
  worker.gone = true;
  alive -= 1;
  // A batch waiting for a free worker gets a new one in its place.
  const next = waiting.shift();
  if (next) next(startWorker());
  return true;
}

/** A batch ended: the worker goes to the next batch waiting, or idles until IDLE_MS. */
function release(worker: EspeakWorker): void {
  if (worker.gone) return;
  const next = waiting.shift();
  if (next) {
    next(worker);
    return;
  }
  holdOpen(worker, false);
  idle.push(worker);
  worker.idleTimer = setTimeout(() => {
    worker.child.stdin.end();
    forget(worker);
  }, IDLE_MS);
  worker.idleTimer.unref();
}

function takeWorker(): Promise<EspeakWorker> {
  const worker = idle.pop();
  if (worker) {
    if (worker.idleTimer) clearTimeout(worker.idleTimer);
    worker.idleTimer = null;
    return Promise.resolve(worker);
  }
  if (alive < MAX_WORKERS) return Promise.resolve(startWorker());
  return new Promise((resolve) => waiting.push(resolve));
}

/** The worker process ended under a batch (killed, crashed): not the batch's own failure. */
class WorkerDied extends Error {}

/**
 * Synthesises a batch of jobs in one worker; a batch that outlasts `timeoutMs` ends its worker.
 * A worker that dies under the batch (killed for memory, or an idle one that died and was taken
 * before its exit was seen) is replaced and the batch spoken again once, on the new one; a
 * second death fails it with the message.
 */
async function runWorker(jobs: Job[], timeoutMs = 120_000): Promise<void> {
  try {
    await runInWorker(jobs, timeoutMs);
  } catch (error) {
    if (!(error instanceof WorkerDied)) throw error;
    // On a new process: an idle one may be dead too, its exit not seen yet (killed together).
    await runInWorker(jobs, timeoutMs, startWorker());
  }
}

async function runInWorker(
  jobs: Job[],
  timeoutMs: number,
  fresh: EspeakWorker | null = null,
): Promise<void> {
  const worker = fresh ?? (await takeWorker());
  holdOpen(worker, true);
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      settle(worker, new Error('离线语音合成超时'));
      forget(worker);
    }, timeoutMs);
    worker.pending = { resolve, reject, timer };
    worker.child.stdin.write(`${JSON.stringify({ jobs })}\n`);
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
