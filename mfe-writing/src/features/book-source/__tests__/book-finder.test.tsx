import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { BookDetail } from '@kol/shared-sdk';
import { renderWithHost } from '@kol/shared-sdk/testing';
import { PLATFORMS, demoBook, demoBookSummary } from '../../../testing/fixtures';
import {
  ok,
  startFakeBackend,
  type FakeBackend,
  type FakeRoutes,
} from '../../../testing/fake-backend';
import { BookFinder } from '../components/book-finder';

let backend: FakeBackend | undefined;

afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

async function renderFinder(routes: FakeRoutes) {
  backend = await startFakeBackend(routes);
  const chosen = jest.fn<(book: BookDetail) => void>();
  renderWithHost(
    <BookFinder
      platforms={PLATFORMS}
      platformsError={null}
      onReloadPlatforms={() => undefined}
      platformId={1}
      onPlatformChange={() => undefined}
      onBookChosen={chosen}
    />,
  );
  return { server: backend, chosen };
}

const searchButton = () => screen.getByText(/^搜\s*索$/);

describe('book finder: an empty name lists the library', () => {
  it('lists the platform’s books for an empty search, and one of them can be chosen', async () => {
    const { server, chosen } = await renderFinder({
      'GET /api/writing/search': () =>
        ok([demoBookSummary(), demoBookSummary({ bookId: 12, title: '雾港来信' })]),
      'GET /api/writing/search_cbid': () => ok(demoBook()),
    });
    expect(screen.getByLabelText('搜索书籍')).toHaveAttribute(
      'placeholder',
      '输入书名，留空搜索列出书库中的书',
    );
    // Spaces only are an empty name too.
    fireEvent.change(screen.getByLabelText('搜索书籍'), { target: { value: '  ' } });
    fireEvent.click(searchButton());

    expect(await screen.findByText('书库中的书：选择一本，或输入书名搜索')).toBeInTheDocument();
    expect(screen.getByLabelText('选择 雾港来信')).toBeInTheDocument();
    expect(server.calls('GET', '/api/writing/search').map((call) => call.query)).toEqual([
      { bookName: '', platformId: '1' },
    ]);
    expect(screen.queryByText('请输入书名')).not.toBeInTheDocument();

    fireEvent.click(screen.getByLabelText('选择 星河旧梦'));
    await waitFor(() => expect(chosen).toHaveBeenCalledTimes(1));
    expect(chosen.mock.calls[0]?.[0].title).toBe('星河旧梦');
  });

  it('says the library is empty, and how to fill it, when it has no book', async () => {
    await renderFinder({ 'GET /api/writing/search': () => ok([]) });
    fireEvent.click(searchButton());
    expect(await screen.findByTestId('book-results')).toHaveTextContent(
      '书库里还没有书，上传一本到本地书库',
    );
  });

  it('still asks for an id when searching by id with an empty box', async () => {
    const { server } = await renderFinder({ 'GET /api/writing/search': () => ok([]) });
    fireEvent.click(screen.getByText('按书籍编号'));
    fireEvent.click(searchButton());
    expect(await screen.findByText('请输入书籍编号')).toBeInTheDocument();
    expect(server.calls('GET', '/api/writing/search')).toHaveLength(0);
    expect(server.calls('GET', '/api/writing/search_cbid')).toHaveLength(0);
  });
});
