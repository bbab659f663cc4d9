import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ok, renderWithHost } from '@kol/shared-sdk/testing';
import { videoBackendPerTest } from '../../../testing/backend';
import { BookChapterPicker } from '../components/book-chapter-picker';

const backend = videoBackendPerTest();

const LIBRARY = [{ id: 1, name: '本地书库', builtin: true }];
const summary = (bookId: number, title: string) => ({
  bookId,
  platformId: 1,
  title,
  author: '',
  intro: '',
  chapterCount: 1,
});

/** Types `value` and presses Enter (down and up: the input takes one Enter per key press). */
function searchFor(value: string) {
  const box = screen.getByLabelText('搜索书名');
  fireEvent.change(box, { target: { value } });
  fireEvent.keyDown(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
  fireEvent.keyUp(box, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

describe('book chapter picker: an empty name lists the library', () => {
  it('lists the platform’s books for an empty search, and a chapter of one is taken', async () => {
    const server = await backend.start({
      'GET /api/writing/get_platforms': () => ok(LIBRARY),
      'GET /api/writing/search': () => ok([summary(11, '星河旧梦'), summary(12, '雾港来信')]),
      'GET /api/writing/search_cbid': () =>
        ok({
          ...summary(12, '雾港来信'),
          chapters: [{ chapterId: 201, index: 0, title: '第一章 来信', wordCount: 6 }],
        }),
      'GET /api/writing/get_chapter_content': () =>
        ok({ bookId: 12, chapterId: 201, title: '第一章 来信', content: '不要去码头。' }),
    });
    const onPick = jest.fn();
    renderWithHost(<BookChapterPicker onPick={onPick} />);
    await screen.findByText('本地书库');
    expect(screen.getByLabelText('搜索书名')).toHaveAttribute(
      'placeholder',
      '输入书名，留空搜索列出书库中的书',
    );

    searchFor('  ');
    expect(await screen.findByText('书库中的书：选择一本，或输入书名搜索')).toBeInTheDocument();
    expect(screen.getByLabelText('选择书籍 星河旧梦')).toBeInTheDocument();
    expect(server.calls('GET', '/api/writing/search').map((call) => call.query)).toEqual([
      { bookName: '', platformId: '1' },
    ]);
    expect(screen.queryByText('请输入书名')).not.toBeInTheDocument();

    fireEvent.click(screen.getByLabelText('选择书籍 雾港来信'));
    fireEvent.click(await screen.findByText(/^使用本章$/));
    await waitFor(() =>
      expect(onPick).toHaveBeenCalledWith('不要去码头。', '雾港来信 第一章 来信', 201),
    );
  });

  it('says the library is empty when it has no book, and a title search says no match', async () => {
    const server = await backend.start({
      'GET /api/writing/get_platforms': () => ok(LIBRARY),
      'GET /api/writing/search': () => ok([]),
    });
    renderWithHost(<BookChapterPicker onPick={() => undefined} />);
    await screen.findByText('本地书库');
    searchFor('');
    expect(await screen.findByText('书库里还没有书')).toBeInTheDocument();
    searchFor('没有这本');
    await waitFor(() => expect(server.calls('GET', '/api/writing/search')).toHaveLength(2));
    expect(await screen.findByText('没有找到这本书，换个书名试试')).toBeInTheDocument();
  });
});
