import { splitSentences } from '@kol/shared-sdk/text';

/**
 * Longest text one comic clip takes (about 40 minutes of narration, at most 500 shots); the
 * decompression video takes the same.
 */
export const MAX_VIDEO_TEXT_CHARS = 10_000;

/** Why a text cannot become a comic clip, in Chinese, or null when it can. */
export function videoTextProblem(text: string): string | null {
  if (!text.trim()) return '请先填写视频文案';
  if (text.length > MAX_VIDEO_TEXT_CHARS) {
    return `文案不能超过 ${MAX_VIDEO_TEXT_CHARS} 字（当前 ${text.length} 字），请删减后再继续`;
  }
  if (splitSentences(text).length === 0) return '文案中没有可朗读的文字，请填写正文';
  return null;
}

/** A title from the text when the creator gives none: its first line, at most 20 characters. */
export function titleOf(text: string): string {
  const first = text.trim().split('\n')[0]?.trim() ?? '';
  return first.length > 20 ? `${first.slice(0, 20)}…` : first || '未命名视频';
}
