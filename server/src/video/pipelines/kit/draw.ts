import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { ProviderError } from '../../../providers/errors';
import { LOCAL_FALLBACK_LABEL, LOCAL_FRAME_LABEL } from '@kol/shared-sdk/contracts';
import { renderLocalPicture } from '../../engine/looks/render';
import { buildShotPrompt, type RoleLook, type ShotDescription } from './prompt';
import type { ImageProvider } from '../../../providers/images/types';

/**
 * The image engines of this installation (version_list): the configured provider first, then
 * the local renderer, which draws offline and stands in for every failed picture.
 */
export function imageEngines(
  provider: ImageProvider | null,
): Array<{ id: number; name: string; description: string }> {
  const local = {
    id: 1,
    name: LOCAL_FRAME_LABEL,
    description: provider
      ? '本地画面渲染：图像服务出错时代替出错的画面，并标记为可重新生成'
      : '本地画面渲染：按场景配色，画出出场角色与文字，无需网络',
  };
  if (!provider) return [local];
  const kind = provider.name === 'comfyui' ? 'ComfyUI 工作流' : 'OpenAI 兼容图像接口';
  return [{ id: 2, name: provider.label, description: `已配置的图像服务（${kind}）` }, local];
}

export interface ShotImageRequest extends ShotDescription {
  width: number;
  height: number;
  /** Drawn in a caption box by the local renderer (pictures shown on their own). */
  localCaption?: string;
  /**
   * The work (e.g. `work:12`) and the shot's index in it: the local renderer picks its layout
   * from them, so consecutive shots differ and a re-render draws the same. Default: seedKey, 0.
   */
  seriesKey?: string;
  shotIndex?: number;
  /** A role portrait: the local renderer draws a character card of this role. */
  localPortrait?: { name: string; description: string };
}

export interface DrawnImage {
  /** The picture as JPEG, whatever the provider answered. */
  jpeg: Buffer;
  /** Who drew it (Chinese): the provider's label or the local renderer's. */
  engine: string;
  /** True when the provider failed and the local frame stands in: the shot can be redrawn. */
  needsRegeneration: boolean;
  /** The provider's failure (Chinese, naming it), when it failed. */
  error: string | null;
  /** The roles the picture shows (named in the caption). */
  present: RoleLook[];
}

/** Decodes a provider's picture (so a broken one is caught here, not by ffmpeg) into JPEG. */
async function toJpeg(bytes: Buffer, providerLabel: string): Promise<Buffer> {
  const image = await loadImage(bytes).catch(() => {
    throw new ProviderError('malformed', `图像服务 ${providerLabel} 返回的图片无法解码`);
  });
  const canvas = createCanvas(image.width, image.height);
  canvas.getContext('2d').drawImage(image, 0, 0);
  return canvas.toBuffer('image/jpeg', 92);
}

/**
 * One picture of a shot or a role: the configured provider, and when it fails the local frame
 * with the provider's message and `needsRegeneration`, so one failed picture never fails a
 * video. Offline the local frame is simply the engine.
 */
export async function drawShotImage(
  provider: ImageProvider | null,
  request: ShotImageRequest,
  signal: AbortSignal,
): Promise<DrawnImage> {
  const built = buildShotPrompt(request);
  let failure: string | null = null;
  if (provider) {
    try {
      const bytes = await provider.draw(
        {
          prompt: built.prompt,
          negativePrompt: built.negativePrompt,
          width: request.width,
          height: request.height,
          seed: built.seed,
          ...(built.referenceImagePath ? { referenceImagePath: built.referenceImagePath } : {}),
          ...(built.referenceImagePaths.length > 0
            ? { referenceImagePaths: built.referenceImagePaths }
            : {}),
        },
        signal,
      );
      return {
        jpeg: await toJpeg(bytes, provider.label),
        engine: provider.label,
        needsRegeneration: false,
        error: null,
        present: built.present,
      };
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      failure =
        error instanceof ProviderError
          ? error.message
          : `图像服务 ${provider.label} 出错（${error instanceof Error ? error.message : String(error)}）`;
    }
  }
  const jpeg = renderLocalPicture({
    scene: request.prompt,
    caption: request.caption,
    roles: built.present.map(({ name, description }) => ({ name, description })),
    ...(request.localCaption ? { note: request.localCaption } : {}),
    ...(request.style ? { palette: request.style.palette } : {}),
    ...(request.localPortrait ? { portrait: request.localPortrait } : {}),
    width: request.width,
    height: request.height,
    seriesKey: request.seriesKey ?? request.seedKey,
    shotIndex: request.shotIndex ?? 0,
  });
  return {
    jpeg,
    engine: failure ? LOCAL_FALLBACK_LABEL : LOCAL_FRAME_LABEL,
    needsRegeneration: failure !== null,
    error: failure,
    present: built.present,
  };
}

/** Writes a file whole: under a temporary name, renamed when complete. */
export async function writeWhole(file: string, bytes: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.part`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
}
