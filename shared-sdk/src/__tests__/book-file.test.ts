import { describe, expect, it } from '@jest/globals';
import { bookFileProblem } from '../book-file';
import { MAX_BOOK_UPLOAD_BYTES } from '../constants';

describe('bookFileProblem', () => {
  it('takes a TXT or an EPUB of some bytes, up to the limit', () => {
    expect(bookFileProblem({ name: '青灯照剑.TXT', size: 10 })).toBeNull();
    expect(bookFileProblem({ name: 'book.epub', size: MAX_BOOK_UPLOAD_BYTES })).toBeNull();
  });

  it('names why another file cannot go', () => {
    expect(bookFileProblem({ name: 'book.pdf', size: 10 })).toBe('仅支持 TXT 或 EPUB 格式的书籍');
    expect(bookFileProblem({ name: 'book.txt', size: 0 })).toBe('文件是空的，请换一个文件');
    expect(bookFileProblem({ name: 'book.txt', size: MAX_BOOK_UPLOAD_BYTES + 1 })).toBe(
      '书籍文件不能超过 20 MB',
    );
  });
});
