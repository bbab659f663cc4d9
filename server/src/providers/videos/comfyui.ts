import path from 'node:path';
import type { VideoProviderConfig } from '../../config';
import { findRepoRoot } from '../../paths';
import { createComfyClient, outputFiles } from '../comfyui';
import { host, withDeadline } from '../http';
import { clipFormat, VIDEO_REJECTED, type ClipRequest, type VideoProvider } from './types';

type ComfyVideoConfig = Extract<VideoProviderConfig, { kind: 'comfyui' }>;

/** The image-to-video workflow shipped with the server (Wan 2.2 TI2V 5B, API format). */
export const DEFAULT_VIDEO_WORKFLOW_PATH = (): string =>
  path.join(findRepoRoot(), 'server', 'src', 'providers', 'videos', 'comfyui-img2vid.json');

/** Video files among a run's outputs (SaveVideo lists them under `images`, VHS under `gifs`). */
const VIDEO_FILE = /\.(mp4|webm|mov|mkv|gif|webp)$/i;

/** Wan makes 720p in multiples of 32: the long side 1280, the short side rounded down. */
export function comfyVideoSize(width: number, height: number): { width: number; height: number } {
  const scale = 1280 / Math.max(width, height);
  const round = (value: number) => Math.max(32, Math.floor((value * scale) / 32) * 32);
  return { width: round(width), height: round(height) };
}

/** Frames for a clip of the shot's length: Wan takes 4k+1, at most `maxSeconds` (then held). */
export function comfyVideoFrames(durationMs: number, fps: number, maxSeconds: number): number {
  const seconds = Math.min(maxSeconds, Math.max(1, durationMs / 1000));
  return 4 * Math.ceil((seconds * fps) / 4) + 1;
}

/**
 * A ComfyUI server running an image-to-video workflow (providers/comfyui.ts): the shot's
 * picture is uploaded and named by `%image%`; `%prompt%`, `%negative_prompt%`, `%seed%`,
 * `%width%`, `%height%`, `%length%` (frames) and `%fps%` are filled; the first video file the
 * run writes is the clip.
 */
export function createComfyUiVideoProvider(
  config: ComfyVideoConfig,
  options: { pollMs?: number } = {},
): VideoProvider {
  const label = `ComfyUI 视频（${host(config.url)}）`;
  const who = `视频服务 ${label}`;
  const comfy = createComfyClient({
    url: config.url,
    who,
    urlSetting: 'COMFYUI_VIDEO_URL',
    workflowSetting: 'COMFYUI_VIDEO_WORKFLOW',
    workflowPath: config.workflowPath ?? DEFAULT_VIDEO_WORKFLOW_PATH(),
    rejectedHint: VIDEO_REJECTED,
    pollMs: options.pollMs ?? config.pollMs,
  });

  return {
    name: 'comfyui',
    label,
    animate(request: ClipRequest, signal: AbortSignal) {
      return withDeadline(who, config.timeoutMs, signal, async (deadline) => {
        const size = comfyVideoSize(request.width, request.height);
        const bytes = await comfy.run({
          values: {
            prompt: request.prompt,
            negative_prompt: request.negativePrompt ?? '',
            seed: request.seed,
            width: size.width,
            height: size.height,
            length: comfyVideoFrames(request.durationMs, config.fps, config.maxSeconds),
            fps: config.fps,
          },
          uploads: { image: request.imagePath },
          pick: (outputs) =>
            outputFiles(outputs, ['videos', 'gifs', 'images']).find((file) =>
              VIDEO_FILE.test(file.filename),
            ),
          nothingOut: '运行完成但没有输出视频（工作流缺少 SaveVideo 节点？）',
          signal: deadline,
        });
        if (!clipFormat(bytes)) throw comfy.malformed('返回的内容不是视频');
        return bytes;
      });
    },
  };
}
