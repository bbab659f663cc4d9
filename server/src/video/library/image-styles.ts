import type { Lora } from '@kol/shared-sdk/contracts';
import type { FramePalette } from '../engine/frames/render-frame';

/**
 * The built-in image styles (get_loras; `imageStyleId` of the settings and of gen_img). A
 * provider gets the style's words appended to its prompt; the local frame renderer changes its
 * palette, so a style is visible offline too.
 */
export interface ImageStyle {
  id: number;
  name: string;
  description: string;
  /** Appended to provider prompts. */
  prompt: string;
  palette: FramePalette;
}

export const IMAGE_STYLES: readonly ImageStyle[] = [
  {
    id: 1,
    name: '日系动漫',
    description: '明亮通透的赛璐璐动画风格',
    prompt: '日系动漫风格，赛璐璐上色，线条干净，色彩明亮 (anime style, cel shading)',
    palette: { saturation: 1.15, lightness: 12 },
  },
  {
    id: 2,
    name: '国风水墨',
    description: '淡雅留白的中国水墨画',
    prompt: '中国水墨画风格，淡墨晕染，大面积留白 (Chinese ink wash painting)',
    palette: { saturation: 0.15, lightness: 25 },
  },
  {
    id: 3,
    name: '赛博朋克',
    description: '霓虹灯下的未来都市',
    prompt: '赛博朋克风格，霓虹灯光，夜晚都市，高对比 (cyberpunk, neon lights)',
    palette: { saturation: 1.3, lightness: -12, hues: [300, 185] },
  },
  {
    id: 4,
    name: '写实电影',
    description: '电影感的写实光影',
    prompt: '电影质感，写实摄影，自然光影，景深 (cinematic still, photorealistic)',
    palette: { saturation: 0.6, lightness: -4, hues: [195, 28] },
  },
  {
    id: 5,
    name: '美式漫画',
    description: '粗线条、高饱和的美漫',
    prompt: '美式漫画风格，粗黑描边，网点阴影，高饱和色彩 (American comic book style)',
    palette: { saturation: 1.4, lightness: 0 },
  },
  {
    id: 6,
    name: '治愈水彩',
    description: '柔和温暖的手绘水彩',
    prompt: '手绘水彩风格，柔和暖色，治愈氛围 (soft watercolor illustration)',
    palette: { saturation: 0.55, lightness: 18, hues: [35, 340] },
  },
];

/** The style of an id; an unknown or absent id draws without one. */
export function imageStyleOf(id: number | null | undefined): ImageStyle | null {
  return IMAGE_STYLES.find((style) => style.id === id) ?? null;
}

/** get_loras: the styles as the contract lists them (no cover pictures are shipped). */
export function loraList(): Lora[] {
  return IMAGE_STYLES.map(({ id, name, description }) => ({ id, name, description, coverUrl: '' }));
}
