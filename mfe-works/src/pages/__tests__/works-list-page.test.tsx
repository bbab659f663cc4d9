import { describe, expect, it, jest } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QUOTA_FIELDS, type UsageLimits, type WorkSummary } from '@kol/shared-sdk';
import {
  demoUser,
  fakeBackendPerTest,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeBackend,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { WORK_LISTS, type WorkList } from '../../lib/work-lists';
import { demoWorkSummary } from '../../testing/fixtures';
import { WorksListPage } from '../works-list-page';

const backend = fakeBackendPerTest();

/** Polls quickly so a test of a running work takes a fraction of a second. */
const POLL_MS = 60;

function listAt(path: string): WorkList {
  const list = WORK_LISTS.find((entry) => entry.path === path);
  if (!list) throw new Error(`no works list at ${path}`);
  return list;
}

/** Every usage-limit field at the same value. */
function limitsOf(value: number): UsageLimits {
  return Object.fromEntries(
    Object.values(QUOTA_FIELDS)
      .flatMap((fields) => Object.values(fields))
      .filter((field) => field !== null)
      .map((field) => [field, value]),
  ) as UsageLimits;
}

/** A comic clip work that has been made: its task done, its video and captions there. */
function madeWork(workId: number, overrides: Partial<WorkSummary> = {}): WorkSummary {
  return demoWorkSummary(workId, {
    title: `视频 ${workId}`,
    taskId: `task-${workId}`,
    state: 'succeeded',
    progress: 100,
    coverUrl: `/media/works/${workId}/cover.jpg`,
    videoUrl: `/media/works/${workId}/video.mp4`,
    srtUrl: `/media/works/${workId}/video.srt`,
    durationMs: 83_400,
    ...overrides,
  });
}

/** A store of works that get_works filters (type, flag, title) and pages as the server does. */
function worksRoutes(works: WorkSummary[], overrides: FakeRoutes = {}): FakeRoutes {
  const find = (workId: unknown) => {
    const work = works.find((entry) => entry.workId === Number(workId));
    if (!work) throw new Error(`no work ${String(workId)}`);
    return work;
  };
  return {
    'GET /api/video/get_works': ({ query }) => {
      const matching = works.filter(
        (work) =>
          (query.type === undefined || work.type === Number(query.type)) &&
          (query.flag === undefined || work.flag === Number(query.flag)) &&
          work.title.includes(query.keyword ?? ''),
      );
      const size = Number(query.pageSize);
      const start = (Number(query.pageIndex) - 1) * size;
      return ok({ items: matching.slice(start, start + size), total: matching.length });
    },
    'GET /api/user/get_user_limit_info': () => ok(limitsOf(3)),
    'GET /api/video/regenerate_video': ({ query }) => {
      Object.assign(find(query.workId), { taskId: 'task-new', state: 'queued', progress: 0 });
      return ok({ taskId: 'task-new' });
    },
    'GET /api/video/update_video_status': ({ query }) => {
      find(query.workId).flag = Number(query.flag);
      return ok(null);
    },
    'POST /api/video/save_video_info': ({ body }) => {
      const { workId, title } = body as { workId: number; title: string };
      find(workId).title = title;
      return ok(null);
    },
    'GET /api/video/delete_work': ({ query }) => {
      works.splice(works.indexOf(find(query.workId)), 1);
      return ok(null);
    },
    ...overrides,
  };
}

interface RenderOptions {
  path?: string;
  /** The address after the path (`?tab=works…`). */
  search?: string;
  routes?: FakeRoutes;
  user?: ReturnType<typeof demoUser>;
}

async function renderList(works: WorkSummary[], options: RenderOptions = {}) {
  const path = options.path ?? '/work/comics';
  const server = await backend.start(worksRoutes(works, options.routes));
  const view = renderWithHost(<WorksListPage list={listAt(path)} pollIntervalMs={POLL_MS} />, {
    route: `${path}${options.search ?? ''}`,
    user: options.user ?? demoUser({ templateIds: [0, 1, 2, 3, 4, 5, 6], functionalLevel: 1 }),
  });
  return { ...view, server };
}

const listCalls = (server: FakeBackend) =>
  server.calls('GET', '/api/video/get_works').map((call) => call.query);
const card = (workId: number) => screen.getByTestId(`work-card-${workId}`);
const location = () => screen.getByTestId('location').textContent;
/** The confirmation or form dialog opened last (role queries over the whole page are slow). */
const openDialog = () =>
  waitFor(() => {
    const dialog = [...document.querySelectorAll<HTMLElement>('[role="dialog"]')].at(-1);
    if (!dialog) throw new Error('no dialog');
    return dialog;
  });
/** The 更多 menus shown now (a closed one stays in the page, hidden). */
const shownMenus = () =>
  [...document.querySelectorAll<HTMLElement>('.ant-dropdown [role="menu"]')].filter(
    (element) => !element.closest('.ant-dropdown-hidden'),
  );
/** The 更多 menu of the work titled `title`, opened: the one menu its click shows. */
async function openMore(title: string) {
  const before = shownMenus();
  fireEvent.click(screen.getByRole('button', { name: `更多 ${title}` }));
  return waitFor(() => {
    const opened = shownMenus().filter((menu) => !before.includes(menu));
    if (opened.length !== 1) throw new Error(`no open menu for ${title}`);
    return opened[0] as HTMLElement;
  });
}
/** The item `name` of the work's 更多 menu, the menu opened first. */
async function moreItem(title: string, name: string | RegExp) {
  return within(await openMore(title)).getByRole('menuitem', { name });
}
const itemNames = (menu: HTMLElement) =>
  within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
const tab = (name: string) => {
  const tabs = document.querySelector<HTMLElement>('[role="tablist"]');
  if (!tabs) throw new Error('no tabs');
  return within(tabs).getByRole('tab', { name });
};

describe('works lists: tabs, paging, search and the address', () => {
  it('lists the domestic drafts first, 12 a page, and the 作品 tab asks for flag 1', async () => {
    const works = [
      ...Array.from({ length: 13 }, (_, index) => madeWork(index + 1)),
      madeWork(20, { flag: 1, title: '已发布的视频' }),
      madeWork(21, { type: 5, title: '海外视频' }),
    ];
    const { server } = await renderList(works);
    expect(await screen.findByText('视频 1')).toBeInTheDocument();
    expect(screen.getByText('漫剪视频', { selector: 'h1' })).toBeInTheDocument();
    expect(tab('草稿')).toHaveAttribute('aria-selected', 'true');
    expect(within(screen.getByTestId('works-grid')).getAllByRole('group')).toHaveLength(12);
    expect(screen.queryByText('已发布的视频')).not.toBeInTheDocument();
    expect(listCalls(server)[0]).toEqual({ type: '0', flag: '0', pageIndex: '1', pageSize: '12' });

    fireEvent.click(within(screen.getByTestId('works-pagination')).getByText('2'));
    expect(await screen.findByText('视频 13')).toBeInTheDocument();
    expect(listCalls(server).at(-1)).toEqual({
      type: '0',
      flag: '0',
      pageIndex: '2',
      pageSize: '12',
    });
    expect(location()).toBe('/work/comics?page=2');

    // A tab switch lists another set: back to its first page.
    fireEvent.click(tab('作品'));
    expect(await screen.findByText('已发布的视频')).toBeInTheDocument();
    expect(screen.queryByText('视频 1')).not.toBeInTheDocument();
    expect(listCalls(server).at(-1)).toEqual({
      type: '0',
      flag: '1',
      pageIndex: '1',
      pageSize: '12',
    });
    expect(location()).toBe('/work/comics?tab=works');
  });

  it('reads the tab, page, keyword and type from the address, so a reload keeps them', async () => {
    const works = Array.from({ length: 14 }, (_, index) =>
      madeWork(index + 1, { type: 5, flag: 1, title: `星河 ${index + 1}` }),
    );
    const { server } = await renderList(works, { search: '?tab=works&page=2&keyword=星河&type=5' });
    expect(await screen.findByText('星河 13')).toBeInTheDocument();
    expect(listCalls(server)[0]).toEqual({
      type: '5',
      flag: '1',
      keyword: '星河',
      pageIndex: '2',
      pageSize: '12',
    });
    expect(tab('作品')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('搜索作品')).toHaveValue('星河');
    expect(within(screen.getByTestId('works-type-switch')).getByLabelText('海外')).toBeChecked();
  });

  it('switches between the domestic and overseas type of a two-type list, one type a call', async () => {
    const works = [madeWork(1, { title: '国内的' }), madeWork(2, { type: 5, title: '海外的' })];
    const { server } = await renderList(works);
    expect(await screen.findByText('国内的')).toBeInTheDocument();
    expect(screen.queryByText('海外的')).not.toBeInTheDocument();

    fireEvent.click(within(screen.getByTestId('works-type-switch')).getByText('海外'));
    expect(await screen.findByText('海外的')).toBeInTheDocument();
    expect(screen.queryByText('国内的')).not.toBeInTheDocument();
    expect(listCalls(server).at(-1)).toEqual({
      type: '5',
      flag: '0',
      pageIndex: '1',
      pageSize: '12',
    });
    expect(location()).toBe('/work/comics?type=5');
    // The overseas card says so.
    expect(within(card(2)).getByText('海外漫剪视频')).toBeInTheDocument();
    expect(within(card(2)).getByText('海外')).toBeInTheDocument();
  });

  it('has no type switch on a one-type list and asks for its type', async () => {
    const { server } = await renderList([madeWork(4, { type: 11, title: '漫剧一' })], {
      path: '/work/anime',
    });
    expect(await screen.findByText('漫剧一')).toBeInTheDocument();
    expect(screen.queryByTestId('works-type-switch')).not.toBeInTheDocument();
    expect(listCalls(server)[0]).toEqual({ type: '11', flag: '0', pageIndex: '1', pageSize: '12' });
    expect(within(card(4)).queryByText('海外')).not.toBeInTheDocument();
  });

  it('lists one series’ episodes from the address or the series filter, whatever their tab', async () => {
    const works = [
      madeWork(1, { title: '青灯照剑 第1集' }),
      madeWork(2, { title: '青灯照剑 第2集', flag: 1 }),
      madeWork(3, { title: '别的作品' }),
    ];
    const series = [
      {
        seriesId: 4,
        title: '青灯照剑',
        type: 0,
        state: 'finished',
        episodes: 2,
        succeeded: 2,
        failed: 0,
        coverUrl: '',
        createdAt: '2026-12-02T08:00:00.000Z',
      },
      {
        seriesId: 5,
        title: '解压合集',
        type: 1,
        state: 'running',
        episodes: 3,
        succeeded: 0,
        failed: 0,
        coverUrl: '',
        createdAt: '2026-12-02T08:00:00.000Z',
      },
    ];
    const { server } = await renderList(works, {
      search: '?seriesId=4',
      routes: {
        'GET /api/series/list': () => ok(series),
        'GET /api/video/get_works': ({ query }) =>
          ok(
            query.seriesId === '4'
              ? { items: works.slice(0, 2), total: 2 }
              : { items: works, total: works.length },
          ),
      },
    });
    expect(await screen.findByText('青灯照剑 第2集')).toBeInTheDocument();
    expect(screen.queryByText('别的作品')).not.toBeInTheDocument();
    expect(listCalls(server)[0]).toEqual({
      type: '0',
      seriesId: '4',
      pageIndex: '1',
      pageSize: '12',
    });
    // No tabs while one series is listed: its episodes are drafts and posted works alike.
    expect(screen.queryByRole('tab', { name: '草稿' })).not.toBeInTheDocument();
    const filter = screen.getByRole('combobox', { name: '按系列筛选' });
    fireEvent.mouseDown(filter);
    // The comic list offers the comic series only.
    expect(await screen.findByText('全部作品')).toBeInTheDocument();
    expect(screen.queryByText('系列：解压合集')).not.toBeInTheDocument();
    fireEvent.click(screen.getByText('全部作品'));
    expect(await screen.findByText('别的作品')).toBeInTheDocument();
    expect(location()).toBe('/work/comics');
  });

  it('searches by title, says when nothing matches and clears the search', async () => {
    const works = [madeWork(1, { title: '星河推文' }), madeWork(2, { title: '都市口播' })];
    const { server } = await renderList(works);
    await screen.findByText('星河推文');
    fireEvent.change(screen.getByLabelText('搜索作品'), { target: { value: ' 都市 ' } });
    fireEvent.click(screen.getByText(/^搜\s*索$/));
    expect(await screen.findByText('都市口播')).toBeInTheDocument();
    expect(screen.queryByText('星河推文')).not.toBeInTheDocument();
    expect(listCalls(server).at(-1)).toEqual({
      type: '0',
      flag: '0',
      keyword: '都市',
      pageIndex: '1',
      pageSize: '12',
    });
    expect(location()).toBe(`/work/comics?keyword=${encodeURIComponent('都市')}`);

    fireEvent.change(screen.getByLabelText('搜索作品'), { target: { value: '没有这个' } });
    fireEvent.click(screen.getByText(/^搜\s*索$/));
    const empty = await screen.findByTestId('works-empty');
    expect(empty).toHaveTextContent('没有找到标题包含“没有这个”的漫剪视频');
    fireEvent.click(within(empty).getByRole('button', { name: '清除搜索' }));
    expect(await screen.findByText('星河推文')).toBeInTheDocument();
    expect(screen.getByLabelText('搜索作品')).toHaveValue('');
    expect(location()).toBe('/work/comics');
  });
});

describe('works lists: who may see them', () => {
  it('says 没有权限 without the list template id, and never asks for the works', async () => {
    const { server } = await renderList([madeWork(1)], { user: demoUser({ templateIds: [0] }) });
    expect(await screen.findByText('没有权限')).toBeInTheDocument();
    expect(
      screen.getByText('你没有查看「漫剪视频」的权限，如需开通请联系我们。'),
    ).toBeInTheDocument();
    await settle(200);
    expect(server.calls('GET', '/api/video/get_works')).toHaveLength(0);
    expect(screen.queryByTestId('works-grid')).not.toBeInTheDocument();
  });

  it('blocks 反推视频 at functional level 0, and lists it at level 1', async () => {
    const works = [madeWork(1, { type: 3, title: '反推一' })];
    const blocked = await renderList(works, {
      path: '/work/convert',
      user: demoUser({ templateIds: [5], functionalLevel: 0 }),
    });
    expect(await screen.findByText('功能等级不足')).toBeInTheDocument();
    expect(screen.getByText(/「反推视频」需要功能等级 1 及以上/)).toBeInTheDocument();
    await settle(200);
    expect(blocked.server.calls('GET', '/api/video/get_works')).toHaveLength(0);
    blocked.unmount();
    // The next start closes this test's first backend before it opens its own.

    const allowed = await renderList(works, {
      path: '/work/convert',
      user: demoUser({ templateIds: [5], functionalLevel: 1 }),
    });
    expect(await screen.findByText('反推一')).toBeInTheDocument();
    expect(listCalls(allowed.server)[0]).toEqual({
      type: '3',
      flag: '0',
      pageIndex: '1',
      pageSize: '12',
    });
  });
});

describe('works lists: the cards', () => {
  it('shows each state: never made, being made, done, failed, cancelled', async () => {
    const works = [
      demoWorkSummary(1, { title: '只有文案' }),
      madeWork(2, {
        title: '正在做',
        state: 'running',
        stage: 'images',
        progress: 42,
        videoUrl: '',
        srtUrl: '',
        durationMs: 0,
      }),
      madeWork(3, { title: '做好了' }),
      madeWork(4, {
        title: '失败了',
        state: 'failed',
        failedStage: 'voice',
        error: '配音服务超时',
        videoUrl: '',
        srtUrl: '',
        durationMs: 0,
      }),
      madeWork(5, { title: '取消了', state: 'cancelled', videoUrl: '', srtUrl: '' }),
    ];
    // The running card keeps the page polling; answer it as running throughout.
    await renderList(works);
    await screen.findByText('只有文案');

    expect(within(card(1)).getByText('未生成')).toBeInTheDocument();
    expect(within(card(1)).getByRole('img', { name: '只有文案 暂无封面' })).toBeInTheDocument();
    expect(within(card(1)).getByLabelText('去制作 只有文案')).toHaveAttribute(
      'href',
      '/video/caption?workId=1&videoType=0',
    );
    // Nothing made yet: nothing to play, download or make again.
    expect(itemNames(await openMore('只有文案'))).toEqual(['重命名', '移到作品', '删除']);

    expect(within(card(2)).getByText('「画面」')).toBeInTheDocument();
    expect(within(card(2)).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
    expect(within(card(2)).getByRole('button', { name: '编辑 正在做' })).toBeDisabled();
    const regenerate = await moreItem('正在做', /^重新生成/);
    expect(regenerate).toHaveAttribute('aria-disabled', 'true');
    expect(regenerate).toHaveTextContent('正在生成，完成后才能重新生成');

    expect(within(card(3)).getByText('已完成')).toBeInTheDocument();
    expect(within(card(3)).getByText('时长 1分23秒')).toBeInTheDocument();
    expect(within(card(3)).getByRole('img', { name: '做好了 封面' })).toHaveAttribute(
      'src',
      `${backend.current.origin}/media/works/3/cover.jpg`,
    );
    expect(within(card(3)).getByText(/^更新于 2025-11-20/)).toBeInTheDocument();

    expect(within(card(4)).getByText('失败')).toBeInTheDocument();
    expect(within(card(4)).getByText('「配音」阶段失败：配音服务超时')).toBeInTheDocument();
    expect(within(card(5)).getByText('已取消')).toBeInTheDocument();
  });

  it('takes a never-made scrolling video on at its own page', async () => {
    await renderList([demoWorkSummary(6, { type: 2, title: '滚屏文案' })], {
      path: '/work/scroll',
    });
    const make = await screen.findByLabelText('去制作 滚屏文案');
    expect(make).toHaveAttribute('href', '/video/scroll?workId=6');
    fireEvent.click(make);
    expect(location()).toBe('/video/scroll?workId=6');
  });

  it('plays, downloads, opens and edits a made video', async () => {
    await renderList([madeWork(3, { title: '做好了' })]);
    await screen.findByText('做好了');
    const menu = await openMore('做好了');
    const video = within(menu).getByRole('link', { name: '下载视频（MP4）' });
    expect(video).toHaveAttribute('href', `${backend.current.origin}/media/works/3/video.mp4`);
    expect(video).toHaveAttribute('download', '做好了.mp4');
    const captions = within(menu).getByRole('link', { name: '下载字幕（SRT）' });
    expect(captions).toHaveAttribute('href', `${backend.current.origin}/media/works/3/video.srt`);
    expect(captions).toHaveAttribute('download', '做好了.srt');

    fireEvent.click(within(menu).getByRole('menuitem', { name: '播放' }));
    const player = await screen.findByLabelText('视频播放器');
    expect(player.tagName).toBe('VIDEO');
    expect(player).toHaveAttribute('src', `${backend.current.origin}/media/works/3/video.mp4`);
    expect(player).toHaveAttribute('controls');

    expect(screen.getByLabelText('编辑 做好了')).toHaveAttribute('href', '/work/cut/3');
    fireEvent.click(screen.getByLabelText('查看 做好了'));
    expect(location()).toBe('/video/short/task-3');
  });

  it('marks a video whose quality report found problems 需检查, with the count', async () => {
    await renderList([
      madeWork(3, { title: '有问题', reportProblems: 2 }),
      madeWork(4, { title: '没问题' }),
    ]);
    const tag = await within(await screen.findByTestId('work-card-3')).findByText('需检查');
    expect(tag).toHaveClass('ant-tag-warning');
    fireEvent.mouseEnter(tag);
    expect(
      await screen.findByText('质量报告发现 2 个问题，打开「查看」了解详情'),
    ).toBeInTheDocument();
    expect(within(card(4)).queryByText('需检查')).not.toBeInTheDocument();
  });

  it('shows at most three labelled actions on a card and the rest under 更多', async () => {
    await renderList([madeWork(3, { title: '做好了' }), demoWorkSummary(1, { title: '只有文案' })]);
    await screen.findByText('做好了');
    // Every control of a card: its name, and the text a sighted creator reads on it.
    const controls = (workId: number) =>
      [
        ...card(workId).querySelectorAll<HTMLElement>('button, a, [role="button"], [role="link"]'),
      ].map((control) => [control.getAttribute('aria-label'), control.textContent?.trim()]);
    expect(controls(3)).toEqual([
      ['编辑 做好了', '编辑'],
      ['查看 做好了', '查看'],
      ['更多 做好了', '更多'],
    ]);
    expect(controls(1)).toEqual([
      ['去制作 只有文案', '去制作'],
      ['更多 只有文案', '更多'],
    ]);
    expect(itemNames(await openMore('做好了'))).toEqual([
      '播放',
      '下载视频（MP4）',
      '下载字幕（SRT）',
      '导出剪映草稿',
      '导出工程（Shotcut / Kdenlive）',
      '重新生成',
      '重命名',
      '移到作品',
      '删除',
    ]);
  });

  it('exports a finished video as a 剪映 draft or an MLT project, or says why it cannot', async () => {
    await renderList([
      madeWork(3, { title: '做好了', exportRefusal: null }),
      madeWork(4, {
        title: '旧视频',
        exportRefusal: '这个视频生成于「导出工程」上线之前，重新生成后即可导出',
      }),
    ]);
    await screen.findByText('做好了');
    const menu = await openMore('做好了');
    expect(
      within(menu).getByRole('link', { name: '导出工程（Shotcut / Kdenlive）' }),
    ).toHaveAttribute(
      'href',
      `${backend.current.origin}/api/video/export_project?workId=3&format=mlt`,
    );
    fireEvent.click(within(menu).getByRole('menuitem', { name: '导出剪映草稿' }));
    // The demo user has no drafts folder yet: the shared dialog asks for it first.
    const dialog = await openDialog();
    expect(within(dialog).getByLabelText('剪映草稿文件夹')).toBeInTheDocument();

    const refused = await moreItem('旧视频', /^导出剪映草稿或工程/);
    expect(refused).toHaveAttribute('aria-disabled', 'true');
    expect(refused).toHaveTextContent('这个视频生成于「导出工程」上线之前，重新生成后即可导出');
  });

  it('downloads from a click anywhere on a download item, not only on its text', async () => {
    await renderList([madeWork(3, { title: '做好了' })]);
    await screen.findByText('做好了');
    // Stands in for the browser's download, which jsdom does not do.
    const follow = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    try {
      const item = await moreItem('做好了', '下载字幕（SRT）');
      fireEvent.click(item);
      expect(follow.mock.contexts).toEqual([within(item).getByRole('link')]);
    } finally {
      follow.mockRestore();
    }
  });

  it('goes to the editor from 编辑', async () => {
    await renderList([madeWork(3, { title: '做好了' })]);
    fireEvent.click(await screen.findByLabelText('编辑 做好了'));
    expect(location()).toBe('/work/cut/3');
  });
});

describe('works lists: the actions', () => {
  it('regenerates after a confirmation that states the count spent and what is left', async () => {
    const works = [madeWork(3, { title: '做好了' })];
    // Left: the regular count plus the reward count.
    const limits = { ...limitsOf(0), remainGenCount: 2, remainRewardsGenerateCount: 1 };
    const { server } = await renderList(works, {
      routes: { 'GET /api/user/get_user_limit_info': () => ok(limits) },
    });
    await screen.findByText('做好了');
    fireEvent.click(await moreItem('做好了', '重新生成'));
    const dialog = await openDialog();
    expect(dialog).toHaveTextContent('重新生成「做好了」？');
    expect(dialog).toHaveTextContent('消耗 1 次「漫剪视频」生成次数（当前剩余 3 次）');
    // The counts were asked again right before the confirmation.
    expect(server.calls('GET', '/api/user/get_user_limit_info').length).toBeGreaterThanOrEqual(2);

    fireEvent.click(within(dialog).getByRole('button', { name: '重新生成' }));
    expect(await screen.findByText('已开始重新生成')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/regenerate_video').map((call) => call.query)).toEqual([
      { workId: '3' },
    ]);
    // The page is fetched again and shows the new task.
    expect(await within(card(3)).findByText('生成中')).toBeInTheDocument();
  });

  it('shows the server refusal of a regeneration and keeps the confirmation open', async () => {
    const { server } = await renderList([madeWork(3, { title: '做好了' })], {
      routes: {
        'GET /api/video/regenerate_video': () =>
          refuse(402, '「漫剪视频」的生成次数已用完，请联系我们增加次数', 402),
      },
    });
    await screen.findByText('做好了');
    fireEvent.click(await moreItem('做好了', '重新生成'));
    const dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: '重新生成' }));
    expect(
      await screen.findByText('「漫剪视频」的生成次数已用完，请联系我们增加次数'),
    ).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/regenerate_video')).toHaveLength(1);
    await settle(300);
    expect(dialog).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: '重新生成' })).toBeEnabled();
    expect(screen.getByText('已完成')).toBeInTheDocument();
  });

  it('disables 重新生成 when the type has no count left', async () => {
    const { server } = await renderList([madeWork(3, { title: '做好了' })], {
      routes: { 'GET /api/user/get_user_limit_info': () => ok(limitsOf(0)) },
    });
    await screen.findByText('做好了');
    const menu = await openMore('做好了');
    const regenerate = () => within(menu).getByRole('menuitem', { name: /^重新生成/ });
    await waitFor(() => expect(regenerate()).toHaveAttribute('aria-disabled', 'true'));
    expect(regenerate()).toHaveTextContent('「漫剪视频」的生成次数已用完');
    fireEvent.click(regenerate());
    await settle();
    expect(document.querySelector('[role="dialog"]')).toBeNull();
    expect(server.calls('GET', '/api/video/regenerate_video')).toHaveLength(0);
  });

  it('renames with save_video_info; an empty title is refused before anything is sent', async () => {
    const { server } = await renderList([madeWork(3, { title: '做好了' })]);
    await screen.findByText('做好了');
    fireEvent.click(await moreItem('做好了', '重命名'));
    const dialog = await openDialog();
    const input = within(dialog).getByLabelText('作品标题');
    expect(input).toHaveValue('做好了');

    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    expect(await within(dialog).findByText('请输入作品标题')).toBeInTheDocument();
    await settle();
    expect(server.calls('POST', '/api/video/save_video_info')).toHaveLength(0);

    fireEvent.change(input, { target: { value: ' 新的名字 ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    expect(await screen.findByText('已重命名')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/save_video_info').map((call) => call.body)).toEqual([
      { workId: 3, revision: 1, title: '新的名字' },
    ]);
    expect(await within(card(3)).findByText('新的名字')).toBeInTheDocument();
  });

  it('keeps the typed title when the server refuses a rename', async () => {
    await renderList([madeWork(3, { title: '做好了' })], {
      routes: { 'POST /api/video/save_video_info': () => refuse(400, '标题含有敏感词') },
    });
    await screen.findByText('做好了');
    fireEvent.click(await moreItem('做好了', '重命名'));
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByLabelText('作品标题'), { target: { value: '别的' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /^保\s*存$/ }));
    expect(await screen.findByText('标题含有敏感词')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('作品标题')).toHaveValue('别的');
  });

  it('moves a draft to 作品 and a creation back to 草稿', async () => {
    const works = [madeWork(1, { title: '草稿一' }), madeWork(2, { title: '草稿二' })];
    const { server } = await renderList(works);
    await screen.findByText('草稿一');
    fireEvent.click(await moreItem('草稿一', '移到作品'));
    expect(await screen.findByText('已移到作品')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('草稿一')).not.toBeInTheDocument());
    expect(screen.getByText('草稿二')).toBeInTheDocument();

    fireEvent.click(tab('作品'));
    await screen.findByText('草稿一');
    fireEvent.click(await moreItem('草稿一', '移到草稿'));
    expect(await screen.findByText('已移到草稿')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/update_video_status').map((call) => call.query)).toEqual(
      [
        { workId: '1', flag: '1' },
        { workId: '1', flag: '0' },
      ],
    );
    expect(await screen.findByTestId('works-empty')).toHaveTextContent('还没有漫剪视频作品');
  });

  it('deletes only after confirmation; the last card of page 2 goes back to page 1', async () => {
    const works = Array.from({ length: 13 }, (_, index) => madeWork(index + 1));
    const { server } = await renderList(works, { search: '?page=2' });
    await screen.findByText('视频 13');
    fireEvent.click(await moreItem('视频 13', '删除'));
    let dialog = await openDialog();
    expect(dialog).toHaveTextContent('删除「视频 13」？');
    fireEvent.click(within(dialog).getByRole('button', { name: /^取\s*消$/ }));
    await settle(300);
    expect(server.calls('GET', '/api/video/delete_work')).toHaveLength(0);

    fireEvent.click(await moreItem('视频 13', '删除'));
    dialog = await openDialog();
    fireEvent.click(within(dialog).getByRole('button', { name: /^删\s*除$/ }));
    expect(await screen.findByText('已删除')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/delete_work').map((call) => call.query)).toEqual([
      { workId: '13' },
    ]);
    expect(await screen.findByText('视频 1')).toBeInTheDocument();
    expect(location()).toBe('/work/comics');
    expect(screen.queryByTestId('works-pagination')).not.toBeInTheDocument();
  });
});

describe('works lists: live progress, empty and failed lists', () => {
  it('fetches the page again while a work is being made, and stops once it is done', async () => {
    const works = [
      madeWork(2, {
        title: '正在做',
        state: 'running',
        stage: 'images',
        progress: 10,
        videoUrl: '',
      }),
    ];
    let calls = 0;
    const { server } = await renderList(works, {
      routes: {
        'GET /api/video/get_works': () => {
          calls += 1;
          const work = works[0] as WorkSummary;
          // Each tick the task moves on; the fourth answer has it done.
          if (calls === 2) Object.assign(work, { stage: 'voice', progress: 60 });
          if (calls >= 4) {
            Object.assign(work, {
              state: 'succeeded',
              progress: 100,
              videoUrl: '/media/works/2/video.mp4',
            });
          }
          return ok({ items: [work], total: 1 });
        },
      },
    });
    expect(await screen.findByText('「画面」')).toBeInTheDocument();
    expect(await screen.findByText('「配音」')).toBeInTheDocument();
    expect(await within(card(2)).findByText('已完成')).toBeInTheDocument();
    expect(itemNames(await openMore('正在做'))).toContain('播放');
    const settled = server.calls('GET', '/api/video/get_works').length;
    expect(settled).toBe(4);
    await settle(POLL_MS * 5);
    expect(server.calls('GET', '/api/video/get_works')).toHaveLength(settled);
  });

  it('stops polling when the page goes away', async () => {
    const works = [madeWork(2, { state: 'running', stage: 'images', progress: 10 })];
    const { server, unmount } = await renderList(works);
    await waitFor(() =>
      expect(server.calls('GET', '/api/video/get_works').length).toBeGreaterThanOrEqual(2),
    );
    unmount();
    const seen = server.calls('GET', '/api/video/get_works').length;
    await settle(POLL_MS * 5);
    expect(server.calls('GET', '/api/video/get_works')).toHaveLength(seen);
  });

  it('says how to make the first work when the list is empty, and leads there', async () => {
    await renderList([]);
    const empty = await screen.findByTestId('works-empty');
    expect(empty).toHaveTextContent(
      '还没有漫剪视频草稿：在视频合成里开始制作第一个视频后，它会出现在这里',
    );
    const make = within(empty).getByRole('link', { name: '去制作' });
    expect(make).toHaveAttribute('href', '/video/config?videoType=0');
    fireEvent.click(make);
    expect(location()).toBe('/video/config?videoType=0');
  });

  it('shows the server message of a failed list with 重试', async () => {
    let fail = true;
    await renderList([madeWork(1, { title: '做好了' })], {
      routes: {
        'GET /api/video/get_works': () =>
          fail
            ? refuse(500, '服务繁忙，请稍后再试', 500)
            : ok({ items: [madeWork(1, { title: '做好了' })], total: 1 }),
      },
    });
    expect(await screen.findByText('服务繁忙，请稍后再试')).toBeInTheDocument();
    expect(screen.queryByTestId('works-empty')).not.toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByText(/^重\s*试$/));
    expect(await screen.findByText('做好了')).toBeInTheDocument();
    expect(screen.queryByText('服务繁忙，请稍后再试')).not.toBeInTheDocument();
  });
});
