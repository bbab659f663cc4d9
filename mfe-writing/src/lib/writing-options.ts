import type { TextKind } from '@kol/shared-sdk';

/** Tones offered on both pages; the field also takes free text (up to 32 characters). */
export const TONE_OPTIONS = ['悬疑紧张', '轻松幽默', '热血燃', '甜宠', '虐心催泪', '温暖治愈'];

export const TEXT_KIND_OPTIONS: { value: TextKind; label: string }[] = [
  { value: 'promo', label: '推文文案' },
  { value: 'narration', label: '视频解说稿' },
  { value: 'spoken', label: '口播短文案' },
];

/** The bounds of `GenerateTextBody.length` (字数). */
export const MIN_LENGTH = 50;
export const MAX_LENGTH = 10_000;
export const MAX_TONE_LENGTH = 32;
