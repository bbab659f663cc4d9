import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { WorkSummary } from '@kol/shared-sdk';
import { demoWorkDetail, demoWorkSummary } from '../../testing/fixtures';
import {
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { MyCopyPage } from '../my-copy-page';

const backend = fakeBackendPerTest();

/** A store of works that get_works pages and filters as the server does. */
function worksRoutes(works: WorkSummary[], overrides: FakeRoutes = {}): FakeRoutes {
  return {
    'GET /api/video/get_works': ({ query }) => {
      const keyword = query.keyword ?? '';
      const matching = works.filter(
        (work) => work.title.includes(keyword) || work.excerpt.includes(keyword),
      );
      const size = Number(query.pageSize);
      const start = (Number(query.pageIndex) - 1) * size;
      return ok({ items: matching.slice(start, start + size), total: matching.length });
    },
    'GET /api/video/work_info': ({ query }) => ok(demoWorkDetail(Number(query.workId))),
    'POST /api/video/update_text': ({ body }) =>
      ok(demoWorkDetail((body as { workId: number }).workId)),
    'GET /api/video/delete_work': ({ query }) => {
      const index = works.findIndex((work) => work.workId === Number(query.workId));
      works.splice(index, 1);
      return ok(null);
    },
    ...overrides,
  };
}

async function renderPage(works: WorkSummary[], overrides: FakeRoutes = {}) {
  const server = await backend.start(worksRoutes(works, overrides));
  const view = renderWithHost(<MyCopyPage />, { route: '/work' });
  return { ...view, server };
}

/** 用于视频's choice of video type (the editor's drawer is a dialog too). */
async function typeChooser(): Promise<HTMLElement> {
  const title = await screen.findByText('用于视频：选择视频类型');
  const dialog = title.closest<HTMLElement>('.ant-modal');
  if (!dialog) throw new Error('no type dialog');
  return dialog;
}

describe('/work My copy', () => {
  it('lists the saved texts of every type (works with a text only), page by page', async () => {
    const works = Array.from({ length: 12 }, (_, index) => demoWorkSummary(index + 1));
    const { server } = await renderPage(works);
    expect(await screen.findByText('文案 1')).toBeInTheDocument();
    expect(screen.getByText('第 1 篇文案的开头')).toBeInTheDocument();
    expect(screen.queryByText('文案 11')).not.toBeInTheDocument();
    expect(server.calls('GET', '/api/video/get_works')[0]?.query).toEqual({
      withText: 'true',
      pageIndex: '1',
      pageSize: '10',
    });
    fireEvent.click(within(screen.getByTestId('work-pagination')).getByText('2'));
    expect(await screen.findByText('文案 11')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/get_works')[1]?.query).toEqual({
      withText: 'true',
      pageIndex: '2',
      pageSize: '10',
    });
  });

  it('searches by keyword', async () => {
    const works = [
      demoWorkSummary(1, { title: '星河推文' }),
      demoWorkSummary(2, { title: '都市口播' }),
    ];
    const { server } = await renderPage(works);
    await screen.findByText('星河推文');
    fireEvent.change(screen.getByLabelText('搜索文案'), { target: { value: '都市' } });
    fireEvent.click(screen.getByText(/^搜\s*索$/));
    await waitFor(() => expect(screen.queryByText('星河推文')).not.toBeInTheDocument());
    expect(screen.getByText('都市口播')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/get_works').at(-1)?.query).toEqual({
      withText: 'true',
      keyword: '都市',
      pageIndex: '1',
      pageSize: '10',
    });
    fireEvent.change(screen.getByLabelText('搜索文案'), { target: { value: '没有这个' } });
    fireEvent.click(screen.getByText(/^搜\s*索$/));
    expect(await screen.findByText('没有找到包含“没有这个”的文案')).toBeInTheDocument();
    fireEvent.click(screen.getByText('清除搜索'));
    expect(await screen.findByText('星河推文')).toBeInTheDocument();
  });

  it('opens a text, edits it and saves it with update_text', async () => {
    const { server } = await renderPage([demoWorkSummary(3)]);
    fireEvent.click(await screen.findByTestId('work-edit-3'));
    const text = await screen.findByLabelText('正文');
    expect(text).toHaveValue('第 3 篇文案的全文。');
    expect(server.calls('GET', '/api/video/work_info')[0]?.query).toEqual({ workId: '3' });
    fireEvent.change(screen.getByLabelText('标题'), { target: { value: '改过的标题' } });
    fireEvent.change(text, { target: { value: '改过的正文' } });
    fireEvent.click(screen.getByTestId('editor-save'));
    expect(await screen.findByText('文案已保存')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/update_text').map((call) => call.body)).toEqual([
      { workId: 3, revision: 1, title: '改过的标题', text: '改过的正文' },
    ]);
    // The list is fetched again to show the new title.
    await waitFor(() => expect(server.calls('GET', '/api/video/get_works')).toHaveLength(2));
  });

  it('shows the server message when a save is refused, keeping the edit', async () => {
    await renderPage([demoWorkSummary(3)], {
      'POST /api/video/update_text': () => refuse(1001, '标题不能超过 100 个字'),
    });
    fireEvent.click(await screen.findByTestId('work-edit-3'));
    fireEvent.change(await screen.findByLabelText('正文'), { target: { value: '新正文' } });
    fireEvent.click(screen.getByTestId('editor-save'));
    expect(await screen.findByText('标题不能超过 100 个字')).toBeInTheDocument();
    expect(screen.getByLabelText('正文')).toHaveValue('新正文');
  });

  it('deletes a text only after confirmation', async () => {
    const works = [demoWorkSummary(1), demoWorkSummary(2)];
    const { server } = await renderPage(works);
    fireEvent.click(await screen.findByTestId('work-delete-1'));
    const cancel = await screen.findByText(/^取\s*消$/);
    fireEvent.click(cancel);
    await settle();
    expect(server.calls('GET', '/api/video/delete_work')).toHaveLength(0);

    fireEvent.click(screen.getByTestId('work-delete-1'));
    await screen.findByText('删除这篇文案？');
    const confirm = document.querySelector(
      '.ant-popover:not(.ant-popover-hidden) .ant-btn-dangerous',
    );
    if (!confirm) throw new Error('no confirm button');
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByText('文案 1')).not.toBeInTheDocument());
    expect(server.calls('GET', '/api/video/delete_work').map((call) => call.query)).toEqual([
      { workId: '1' },
    ]);
    expect(screen.getByText('文案 2')).toBeInTheDocument();
  });

  it('uses a text in a video of the type chosen: its whole text and title go to KOL_VIDEO_HANDOVER, then that type’s first step', async () => {
    await renderPage([demoWorkSummary(5)]);
    fireEvent.click(await screen.findByTestId('work-use-5'));
    const dialog = await typeChooser();
    // Nothing is handed over until a type is chosen.
    expect(sessionStorage.getItem('KOL_VIDEO_HANDOVER')).toBeNull();
    fireEvent.click(within(dialog).getByTestId('video-type-5'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/config\?videoType=5$/),
    );
    expect(JSON.parse(sessionStorage.getItem('KOL_VIDEO_HANDOVER') ?? 'null')).toEqual({
      type: 5,
      text: '第 5 篇文案的全文。',
      title: '文案 5',
    });
  });

  it('uses the edited text and title from the editor in a video', async () => {
    await renderPage([demoWorkSummary(5)]);
    fireEvent.click(await screen.findByTestId('work-edit-5'));
    fireEvent.change(await screen.findByLabelText('正文'), { target: { value: '编辑中的文本' } });
    fireEvent.click(screen.getByTestId('editor-use'));
    const dialog = await typeChooser();
    fireEvent.click(within(dialog).getByTestId('video-type-0'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/config\?videoType=0$/),
    );
    expect(JSON.parse(sessionStorage.getItem('KOL_VIDEO_HANDOVER') ?? 'null')).toEqual({
      type: 0,
      text: '编辑中的文本',
      title: '文案 5',
    });
  });

  it('leads to /generate when nothing is saved yet', async () => {
    await renderPage([]);
    expect(await screen.findByText('还没有保存的文案')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('work-empty-generate'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/generate$/);
  });

  it('shows a failed list and retries', async () => {
    let fail = true;
    const { server } = await renderPage([demoWorkSummary(1)], {
      'GET /api/video/get_works': () =>
        fail ? refuse(5000, '服务繁忙，请稍后再试') : ok({ items: [demoWorkSummary(1)], total: 1 }),
    });
    expect(await screen.findByText('服务繁忙，请稍后再试')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByText(/^重\s*试$/));
    expect(await screen.findByText('文案 1')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/get_works')).toHaveLength(2);
  });
});
