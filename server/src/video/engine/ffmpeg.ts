import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { findRepoRoot } from '../../paths';

/**
 * Resolves packages from server/package.json rather than from import.meta.url: the same module
 * runs as ESM under tsx and as CommonJS under jest (see paths.ts).
 */
export const serverRequire = (): NodeRequire =>
  createRequire(path.join(findRepoRoot(), 'server', 'package.json'));

/**
 * The ffmpeg binary. An explicit path wins, then FFMPEG_PATH, then the binary inside
 * @ffmpeg-installer/ffmpeg (ffmpeg 4.1: no xfade, amix without `normalize`).
 * TODO(env.ts): once env.ts exposes FFMPEG_PATH, callers pass it here instead of relying on
 * process.env, so the setting is validated with the rest of the configuration.
 */
export function resolveFfmpegPath(explicit?: string): string {
  if (explicit) return explicit;
  const fromEnv = process.env.FFMPEG_PATH;
  if (fromEnv) return fromEnv;
  const installer = serverRequire()('@ffmpeg-installer/ffmpeg') as { path: string };
  return installer.path;
}

export interface FfmpegOptions {
  ffmpegPath?: string;
  cwd?: string;
  /** Kill ffmpeg (SIGKILL) after this many ms and reject with FfmpegTimeout; none: no limit. */
  timeoutMs?: number;
}

export class FfmpegError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
    this.name = 'FfmpegError';
  }
}

/** ffmpeg ran past its time limit and was killed (a hostile or broken input, a stuck read). */
export class FfmpegTimeout extends FfmpegError {
  constructor(
    readonly timeoutMs: number,
    stderr: string,
  ) {
    super(`ffmpeg 超过 ${timeoutMs / 1000} 秒仍未完成，已停止`, null, stderr);
    this.name = 'FfmpegTimeout';
  }
}

/** The last meaningful lines of ffmpeg's stderr: the error is almost always at the end. */
function stderrTail(stderr: string, lines = 6): string {
  return stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-lines)
    .join(' | ');
}

/**
 * Runs ffmpeg with `-nostdin` (it otherwise reads the terminal and stalls when run in a loop)
 * and `-y`. Resolves with stderr (ffmpeg reports stream info and filter prints there).
 */
export function runFfmpeg(args: string[], options: FfmpegOptions = {}): Promise<string> {
  const bin = resolveFfmpegPath(options.ffmpegPath);
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-nostdin', '-y', '-hide_banner', ...args], {
      cwd: options.cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stderr.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      // Keep memory bounded on long encodes: only the tail matters for errors.
      while (size > 4_000_000 && chunks.length > 1) size -= chunks.shift()?.length ?? 0;
    });
    let timedOut = false;
    const started = performance.now();
    const timer =
      options.timeoutMs === undefined
        ? null
        : setTimeout(() => {
            timedOut = true;
            // SIGKILL: a process stuck in a read or a decoder may not act on SIGTERM.
            child.kill('SIGKILL');
          }, options.timeoutMs);
    child.on('error', (err) => {
      if (timer) clearTimeout(timer);
      reject(new FfmpegError(`无法启动 ffmpeg（${bin}）：${err.message}`, null, ''));
    });
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      const stderr = Buffer.concat(chunks).toString('utf8');
      // Past the limit whether or not the timer's turn came first: on a busy event loop the
      // process may end before the timer runs, and the limit must not depend on that order.
      const late =
        options.timeoutMs !== undefined && performance.now() - started > options.timeoutMs;
      if (timedOut || late) reject(new FfmpegTimeout(options.timeoutMs ?? 0, stderr));
      else if (code === 0) resolve(stderr);
      else
        reject(
          new FfmpegError(`ffmpeg 执行失败（退出码 ${code}）：${stderrTail(stderr)}`, code, stderr),
        );
    });
  });
}

/** A sibling temp name that keeps the extension, so ffmpeg still infers the container. */
export function tempSibling(finalPath: string): string {
  const dir = path.dirname(finalPath);
  const ext = path.extname(finalPath);
  const base = path.basename(finalPath, ext);
  return path.join(dir, `.${base}.part-${randomBytes(4).toString('hex')}${ext}`);
}

/**
 * Runs ffmpeg writing to a temp name, then renames into place only when the file is whole:
 * non-empty and accepted by `validate` (e.g. a duration check against truncation). Whatever
 * fails, no file is left at `outPath` or at the temp name.
 */
export async function ffmpegToFile(
  argsBeforeOutput: string[],
  outPath: string,
  options: FfmpegOptions & {
    argsAfterOutput?: string[];
    validate?: (tempPath: string) => Promise<void>;
  } = {},
): Promise<string> {
  const tmp = tempSibling(outPath);
  try {
    const stderr = await runFfmpeg(
      [...argsBeforeOutput, tmp, ...(options.argsAfterOutput ?? [])],
      options,
    );
    const info = await stat(tmp).catch(() => null);
    if (!info || info.size === 0)
      throw new FfmpegError(`ffmpeg 没有写出内容：${path.basename(outPath)} 为空`, 0, stderr);
    if (options.validate) await options.validate(tmp);
    await rename(tmp, outPath);
    return stderr;
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
}

export interface MediaInfo {
  durationMs: number | null;
  video?: { codec: string; width: number; height: number; fps: number | null };
  audio?: { codec: string; sampleRate: number | null };
}

/**
 * How long a probe may take unless the caller says otherwise. Reading the headers of a real file
 * takes well under a second; a file crafted to stall the demuxer (or a pipe that never ends)
 * would otherwise hold its caller forever.
 */
export const PROBE_TIMEOUT_MS = 30_000;

/**
 * Stream info from `ffmpeg -i` (exit code 1 with no output is expected there), so production
 * needs no ffprobe binary. Good enough for duration and truncation checks. Killed after
 * `options.timeoutMs` (default PROBE_TIMEOUT_MS): rejects with FfmpegTimeout.
 */
export async function probeWithFfmpeg(
  file: string,
  options: FfmpegOptions = {},
): Promise<MediaInfo> {
  let stderr: string;
  try {
    stderr = await runFfmpeg(['-i', file], {
      ...options,
      timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    });
  } catch (err) {
    if (!(err instanceof FfmpegError) || err.exitCode === null) throw err;
    stderr = err.stderr;
  }
  if (/No such file|Invalid data found/.test(stderr))
    throw new FfmpegError(`无法读取媒体文件：${path.basename(file)}`, 1, stderr);
  const info: MediaInfo = { durationMs: null };
  const d = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (d)
    info.durationMs = Math.round((Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3])) * 1000);
  const videoLine = /Stream #\S+.*Video: [^\n]*/.exec(stderr)?.[0];
  const v = videoLine ? /Video: (\w+).*?, (\d{2,5})x(\d{2,5})/.exec(videoLine) : null;
  if (v && videoLine) {
    const fps = /, ([\d.]+) fps/.exec(videoLine);
    info.video = {
      codec: v[1] ?? '',
      width: Number(v[2]),
      height: Number(v[3]),
      fps: fps ? Number(fps[1]) : null,
    };
  }
  const a = /Stream #\S+.*Audio: (\w+)[^\n]*?(\d+) Hz/.exec(stderr);
  if (a) info.audio = { codec: a[1] ?? '', sampleRate: Number(a[2]) };
  return info;
}

/** Integrated loudness (LUFS) measured by the ebur128 filter. */
export async function measureLoudness(file: string, options: FfmpegOptions = {}): Promise<number> {
  const stderr = await runFfmpeg(
    ['-i', file, '-map', '0:a:0', '-af', 'ebur128', '-f', 'null', '-'],
    options,
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const m = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  if (!m) throw new Error(`无法测量响度：${path.basename(file)}`);
  return Number(m[1]);
}
