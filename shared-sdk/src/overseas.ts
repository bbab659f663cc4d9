/**
 * Overseas videos speak and caption English. A Chinese text is never spoken by an English voice
 * without a word: the decompression page and the server refuse it with the same message, and
 * offer the chat model's translation when the installation has one. Framework-free: the server
 * (gen_video, the pipeline) and the page both call it.
 */

/** Whether a text has Chinese (CJK) characters. */
export const hasCjk = (text: string): boolean => /[\u3400-\u9fff]/.test(text);

/** Why an overseas video cannot speak this text, or null when it is English. */
export function overseasTextRefusal(text: string, chatConfigured: boolean): string | null {
  if (!hasCjk(text)) return null;
  return chatConfigured
    ? '海外版需要英文文案：当前文案是中文，请先「翻译为英文」，或粘贴英文文案'
    : '海外版需要英文文案：当前未配置文本模型，无法自动翻译，请粘贴英文文案';
}
