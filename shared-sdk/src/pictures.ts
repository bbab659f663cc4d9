/**
 * Who drew a shot's picture. The server records an engine name per picture (the configured
 * image service's label, or one of the local renderer's names below) on the work's shot
 * (`Shot.imageEngine`) and in a render's outputs; the pages and the quality report read it with
 * `shotPicture`, so both tell a generated picture from a local card the same way.
 */

/**
 * The engine names of local pictures, recorded per shot and shown by the pages and the quality
 * report. Never drawn into a picture: what the creator posts carries no engine notice.
 */
export const LOCAL_FRAME_LABEL = '本地画面（未配置图像服务）';
/** The engine name of a local frame drawn because the configured image service failed for it. */
export const LOCAL_FALLBACK_LABEL = '本地画面（图像服务出错，可重新生成）';

/**
 * Where a shot's picture comes from: `none` (no picture), `fallback` (a local card standing in
 * for a picture the image service failed to draw), `local` (the local renderer's card, drawn
 * when no image service was configured), `service` (drawn by an image service).
 */
export type ShotPictureSource = 'none' | 'fallback' | 'local' | 'service';

/**
 * What drew a shot's picture, by the engine recorded with it. A picture recorded before engines
 * were (no `imageEngine`) is taken as local when no image service is configured now (nothing
 * else could have drawn it) and as the service's otherwise.
 */
export function shotPicture(
  shot: { imageUrl: string; needsRegeneration: boolean; imageEngine?: string | undefined },
  imagesConfigured: boolean,
): ShotPictureSource {
  if (!shot.imageUrl) return 'none';
  if (shot.needsRegeneration || shot.imageEngine === LOCAL_FALLBACK_LABEL) return 'fallback';
  if (shot.imageEngine === LOCAL_FRAME_LABEL) return 'local';
  if (shot.imageEngine === undefined) return imagesConfigured ? 'service' : 'local';
  return 'service';
}
