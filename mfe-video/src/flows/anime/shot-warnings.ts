import { shotPicture, type QualityAction, type Shot } from '@kol/shared-sdk';
import { LONG_LINE_CHARS, LONG_SHOT_MS } from './anime-script';

/** One thing the final check warns about a shot, in Chinese, and what fixes it when a click can. */
export interface ShotWarning {
  text: string;
  action?: QualityAction;
}

/** The final check's warning for a picture the local renderer drew (no image service). */
export const LOCAL_PICTURE_WARNING =
  '画面是本地画面（未配置图像服务）：只有文字排版，不是生成的插画，配置图像服务后重新生成画面';

/**
 * What the final check warns about a shot's picture, by who drew it (the engine the server
 * recorded on the shot, read with the SDK's shotPicture as the quality report reads it):
 * none, a local stand-in for a failed picture, or a local card. `imagesConfigured`: whether the
 * installation has an image service now (a local card is then redrawn, else one is configured).
 */
function pictureWarning(shot: Shot, imagesConfigured: boolean): ShotWarning | null {
  switch (shotPicture(shot, imagesConfigured)) {
    case 'none':
      return imagesConfigured
        ? {
            text: '没有画面：生成时会自动绘制，建议先在分镜页生成并检查',
            action: 'regeneratePictures',
          }
        : {
            text: '没有画面：生成时会用本地画面代替（未配置图像服务），只有文字排版',
            action: 'configureImages',
          };
    case 'fallback':
      return { text: '画面是本地替代图：图像服务未成功，建议重画', action: 'regeneratePictures' };
    case 'local':
      return imagesConfigured
        ? {
            text: '画面是本地画面（绘制时未配置图像服务）：只有文字排版，不是生成的插画，现在可以重新生成画面',
            action: 'regeneratePictures',
          }
        : { text: LOCAL_PICTURE_WARNING, action: 'configureImages' };
    case 'service':
      return null;
  }
}

/** What the final check warns about one shot: its picture, then its line's length. */
export function shotWarnings(
  shot: Shot,
  spokenMs: number | null,
  imagesConfigured = true,
): ShotWarning[] {
  const warnings: ShotWarning[] = [];
  const picture = pictureWarning(shot, imagesConfigured);
  if (picture) warnings.push(picture);
  const line = shot.line ?? shot.caption;
  if (line.length > LONG_LINE_CHARS) {
    warnings.push({
      text: `台词 ${line.length} 字，超过 ${LONG_LINE_CHARS} 字：一个镜头放不下，建议拆分`,
    });
  } else if (spokenMs !== null && spokenMs > LONG_SHOT_MS) {
    warnings.push({
      text: `台词要说 ${(spokenMs / 1000).toFixed(1)} 秒，超过 ${LONG_SHOT_MS / 1000} 秒：画面停留过久，建议拆分`,
    });
  }
  return warnings;
}
