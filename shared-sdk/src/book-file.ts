import { MAX_BOOK_UPLOAD_BYTES } from './constants';

// Checked in the browser before a book goes to `upload_book` (the writing remote's source
// picker, the video remote's series): the server checks again.

/** The book files the local library takes (the upload contract: TXT or EPUB). */
export const BOOK_FILE_EXTENSIONS = ['.txt', '.epub'] as const;

/** Why a file cannot go to `upload_book`, in Chinese, or null when it can. */
export function bookFileProblem(file: Pick<File, 'name' | 'size'>): string | null {
  const name = file.name.toLowerCase();
  if (!BOOK_FILE_EXTENSIONS.some((extension) => name.endsWith(extension))) {
    return '仅支持 TXT 或 EPUB 格式的书籍';
  }
  if (file.size === 0) return '文件是空的，请换一个文件';
  if (file.size > MAX_BOOK_UPLOAD_BYTES) {
    return `书籍文件不能超过 ${MAX_BOOK_UPLOAD_BYTES / 1024 / 1024} MB`;
  }
  return null;
}
