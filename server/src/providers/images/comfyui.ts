import path from 'node:path';
import type { ImageProviderConfig } from '../../config';
import { findRepoRoot } from '../../paths';
import { createComfyClient, outputFiles } from '../comfyui';
import { ProviderError } from '../errors';
import { host, withDeadline } from '../http';
import { IMAGE_REJECTED, pictureFormat, type ImageProvider, type ImageRequest } from './types';

export { fillWorkflow } from '../comfyui';

type ComfyUiConfig = Extract<ImageProviderConfig, { kind: 'comfyui' }>;

/** The txt2img workflow shipped with the server (API format, with placeholders). */
export const DEFAULT_WORKFLOW_PATH = (): string =>
  path.join(findRepoRoot(), 'server', 'src', 'providers', 'images', 'comfyui-txt2img.json');

/** Stable Diffusion draws about a megapixel in multiples of 64: the long side becomes 1024. */
export function comfySize(width: number, height: number): { width: number; height: number } {
  const scale = 1024 / Math.max(width, height);
  const round = (value: number) => Math.max(64, Math.round((value * scale) / 64) * 64);
  return { width: round(width), height: round(height) };
}

/**
 * A ComfyUI server running a txt2img workflow (providers/comfyui.ts): `%seed%`, `%width%`,
 * `%height%`, `%prompt%`, `%negative_prompt%` and `%checkpoint%` are filled; a workflow with
 * `%reference_image%` gets the role's picture uploaded (`POST /upload/image`) first.
 */
export function createComfyUiProvider(
  config: ComfyUiConfig,
  options: { pollMs?: number } = {},
): ImageProvider {
  const label = `ComfyUI（${host(config.url)}）`;
  const who = `图像服务 ${label}`;
  const comfy = createComfyClient({
    url: config.url,
    who,
    urlSetting: 'COMFYUI_URL',
    workflowSetting: 'COMFYUI_WORKFLOW',
    workflowPath: config.workflowPath ?? DEFAULT_WORKFLOW_PATH(),
    rejectedHint: IMAGE_REJECTED,
    pollMs: options.pollMs ?? 500,
  });

  return {
    name: 'comfyui',
    label,
    draw(request: ImageRequest, signal: AbortSignal) {
      return withDeadline(who, config.timeoutMs, signal, async (deadline) => {
        const template = await comfy.workflow();
        const size = comfySize(request.width, request.height);
        const wantsReference = JSON.stringify(template).includes('%reference_image%');
        if (wantsReference && !request.referenceImagePath) {
          throw new ProviderError(
            'rejected',
            `${who} 的工作流需要参考图（%reference_image%），请先为角色生成或上传形象`,
          );
        }
        const bytes = await comfy.run({
          values: {
            prompt: request.prompt,
            negative_prompt: request.negativePrompt ?? '',
            seed: request.seed,
            width: size.width,
            height: size.height,
            checkpoint: config.checkpoint,
            reference_image: '',
          },
          ...(wantsReference && request.referenceImagePath
            ? { uploads: { reference_image: request.referenceImagePath } }
            : {}),
          pick: (outputs) => outputFiles(outputs, ['images'])[0],
          nothingOut: '运行完成但没有输出图片（工作流缺少 SaveImage 节点？）',
          signal: deadline,
        });
        if (!pictureFormat(bytes)) throw comfy.malformed('返回的内容不是 PNG、JPEG 或 WebP 图片');
        return bytes;
      });
    },
  };
}
