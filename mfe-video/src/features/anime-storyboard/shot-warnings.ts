import type { Shot } from '@kol/shared-sdk';
import { LONG_LINE_CHARS, LONG_SHOT_MS } from '../../lib/anime-script';

/** What the final check warns about one shot, in Chinese. */
export function shotWarnings(shot: Shot, spokenMs: number | null): string[] {
  const warnings: string[] = [];
  const line = shot.line ?? shot.caption;
  if (!shot.imageUrl) warnings.push('没有画面：生成时会自动绘制，建议先在分镜页生成并检查');
  else if (shot.needsRegeneration) warnings.push('画面是本地替代图：图像服务未成功，建议重画');
  if (line.length > LONG_LINE_CHARS) {
    warnings.push(`台词 ${line.length} 字，超过 ${LONG_LINE_CHARS} 字：一个镜头放不下，建议拆分`);
  } else if (spokenMs !== null && spokenMs > LONG_SHOT_MS) {
    warnings.push(
      `台词要说 ${(spokenMs / 1000).toFixed(1)} 秒，超过 ${LONG_SHOT_MS / 1000} 秒：画面停留过久，建议拆分`,
    );
  }
  return warnings;
}
