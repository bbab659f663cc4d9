import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverRequire } from './ffmpeg';

export const CJK_FONT_FAMILY = 'Noto Sans SC';
/** The brush face of the local pictures' titles (engine/looks). */
export const TITLE_FONT_FAMILY = 'Ma Shan Zheng';

export interface CjkFonts {
  family: string;
  regular: string;
  bold: string | null;
  /** The folder of the regular TTF: libass's `fontsdir`, so captions never depend on system fonts. */
  dir: string;
}

let cached: CjkFonts | null = null;

/**
 * Noto Sans SC TTFs from @expo-google-fonts/noto-sans-sc (OFL). @fontsource ships only woff2
 * subsets, which neither libass nor canvas can use.
 */
export function cjkFonts(): CjkFonts {
  if (cached) return cached;
  const pkgJson = serverRequire().resolve('@expo-google-fonts/noto-sans-sc/package.json');
  const root = path.dirname(pkgJson);
  const regular = path.join(root, '400Regular', 'NotoSansSC_400Regular.ttf');
  const bold = path.join(root, '700Bold', 'NotoSansSC_700Bold.ttf');
  if (!existsSync(regular)) throw new Error(`找不到中文字体文件：${regular}`);
  cached = {
    family: CJK_FONT_FAMILY,
    regular,
    bold: existsSync(bold) ? bold : null,
    dir: path.dirname(regular),
  };
  return cached;
}

/**
 * Ma Shan Zheng, a brush regular script, from @expo-google-fonts/ma-shan-zheng (OFL): one
 * 5.9 MB TTF, where a serif face (Noto Serif SC) is 15 MB a weight. Canvas only: captions stay
 * in Noto Sans SC.
 */
export function titleFont(): string {
  const pkgJson = serverRequire().resolve('@expo-google-fonts/ma-shan-zheng/package.json');
  const file = path.join(path.dirname(pkgJson), '400Regular', 'MaShanZheng_400Regular.ttf');
  if (!existsSync(file)) throw new Error(`找不到标题字体文件：${file}`);
  return file;
}
