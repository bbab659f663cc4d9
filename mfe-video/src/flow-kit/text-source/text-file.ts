/** A text file a creator imports as the video's text: plain text only, and small. */
export const MAX_TEXT_FILE_BYTES = 2 * 1024 * 1024;

/** Why a file cannot be imported, in Chinese, or null when it can. */
export function textFileProblem(file: File): string | null {
  const isText = file.type === 'text/plain' || /\.txt$/i.test(file.name);
  if (!isText) return '仅支持导入 .txt 文本文件';
  if (file.size > MAX_TEXT_FILE_BYTES) return '文本文件不能超过 2 MB';
  return null;
}

/** The file's text: UTF-8 when it is valid UTF-8, else GB18030 (what Chinese Windows saves). */
export async function readTextFile(file: File): Promise<string> {
  const bytes = new Uint8Array(await bytesOf(file));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    return new TextDecoder('gb18030').decode(bytes);
  }
}

function bytesOf(file: File): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsArrayBuffer(file);
  });
}
