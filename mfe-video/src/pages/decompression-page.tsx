import { DecompressionStep } from '../flows/decompression/steps/decompression-step';

/** `/video/decompression` 解压视频 · 视频配置: the decompression video, domestic or overseas. */
export function DecompressionPage() {
  return <DecompressionStep />;
}
