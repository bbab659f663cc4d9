/** Longest text the speech tool takes (`async_tts_try`). */
export const MAX_SPEECH_CHARS = 100_000;
/** Up to this many characters are spoken at once (`tts_try`); longer texts run as a task. */
export const SHORT_SPEECH_CHARS = 300;

/** Why a text cannot be spoken, in Chinese, or null when it can. */
export function speechTextProblem(text: string): string | null {
  if (!text.trim()) return '请先输入要转换的文字';
  if (text.length > MAX_SPEECH_CHARS) {
    return `文本不能超过 ${MAX_SPEECH_CHARS} 字（当前 ${text.length} 字）`;
  }
  if (!/[\p{L}\p{N}]/u.test(text)) return '文本中没有可朗读的文字';
  return null;
}
