import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Role, SeriesDetail, SeriesEpisode, SeriesPlan } from '@kol/shared-sdk';
import { TWEET_SEPARATOR, tweetHeading } from '@kol/shared-sdk';
import { ok, refuse, renderWithHost, sseReply } from '@kol/shared-sdk/testing';
import { videoBackendPerTest } from '../../testing/backend';
import { SeriesNewPage } from '../series-new-page';
import { SeriesPage } from '../series-page';

const backend = videoBackendPerTest();

const BOOK = {
  bookId: 3,
  platformId: 1,
  title: '青灯照剑',
  author: '示例',
  intro: '',
  chapterCount: 4,
};
const CHAPTERS = ['第一章 守灯人', '第二章 逐出', '第三章 铜片', '第四章 下山'].map((title, i) => ({
  chapterId: 100 + i,
  index: i,
  title,
  wordCount: 800,
}));

function plan(from: number, to: number, left = 10): SeriesPlan {
  const episodes = [];
  for (let n = from; n <= to; n += 1) {
    episodes.push({
      index: n - from + 1,
      title: `青灯照剑 第${n - from + 1}集`,
      sourceTitle: CHAPTERS[n - 1]?.title ?? '',
      chars: 800,
      estimatedSeconds: 190,
      flagged:
        n === 2
          ? '第2集中有平台可能限流的词：「加微信」（可改为「关注我」），请修改后再开始生成'
          : null,
    });
  }
  return {
    title: '青灯照剑',
    episodes,
    countsNeeded: episodes.length,
    countsLeft: left,
    estimatedSeconds: 76 * episodes.length,
    maxEpisodes: 50,
  };
}

function episode(index: number, overrides: Partial<SeriesEpisode> = {}): SeriesEpisode {
  return {
    index,
    workId: 40 + index,
    title: `青灯照剑 第${index}集`,
    sourceTitle: CHAPTERS[index - 1]?.title ?? '',
    state: 'pending',
    stage: '',
    progress: 0,
    etaSeconds: null,
    error: null,
    taskId: null,
    videoUrl: '',
    srtUrl: '',
    coverUrl: '',
    durationMs: 0,
    ...overrides,
  };
}

function series(overrides: Partial<SeriesDetail> = {}): SeriesDetail {
  const episodes = overrides.episodes ?? [1, 2, 3].map((n) => episode(n));
  return {
    seriesId: 9,
    title: '青灯照剑',
    type: 0,
    state: 'draft',
    succeeded: episodes.filter((e) => e.state === 'succeeded').length,
    failed: episodes.filter((e) => e.state === 'failed').length,
    coverUrl: '',
    createdAt: '2026-12-02T08:00:00.000Z',
    narration: 'chapter',
    settings: { aspect: '9:16' },
    castTaskId: 'cast-1',
    castEngine: '本地角色提取',
    etaSeconds: null,
    reservedCounts: 0,
    ...overrides,
    episodes,
  };
}

const ROLES: Role[] = [
  {
    roleId: 1,
    taskId: 'cast-1',
    name: '林默',
    description: '少年，灰色布衣',
    referenceImageUrl: '',
    imageUrls: [],
    seed: 1,
    loraId: null,
    type: 0,
    gender: 'male',
    revision: 1,
  },
  {
    roleId: 2,
    taskId: 'cast-1',
    name: '沈青禾',
    description: '少女，青衣',
    referenceImageUrl: '',
    imageUrls: [],
    seed: 2,
    loraId: null,
    type: 0,
    gender: 'female',
    revision: 1,
  },
];

describe('/video/series', () => {
  it('plans a season from a library book, lets the titles be edited, and creates the draft once', async () => {
    const server = await backend.start({
      'GET /api/writing/get_platforms': () => ok([{ id: 1, name: '本地书库', builtin: true }]),
      'GET /api/writing/search': () => ok([BOOK]),
      'GET /api/writing/search_cbid': () => ok({ ...BOOK, chapters: CHAPTERS }),
      'GET /api/series/list': () => ok([]),
      'POST /api/series/plan': ({ body }) => {
        const source = (body as { source: { fromChapter: number; toChapter: number } }).source;
        return ok(plan(source.fromChapter, source.toChapter));
      },
      'POST /api/series/create': () => ok(series()),
      'GET /api/series/detail': () => ok(series()),
      'GET /api/role/get_roles': () => ok(ROLES),
    });
    renderWithHost(<SeriesNewPage />, { route: '/video/series' });
    expect(await screen.findByRole('heading', { name: '整季生成' })).toBeInTheDocument();

    fireEvent.mouseDown(screen.getByRole('combobox', { name: '书籍' }));
    fireEvent.click(await screen.findByText('青灯照剑（示例 · 4 章）'));
    expect(await screen.findByRole('combobox', { name: '结束章节' })).toBeInTheDocument();
    expect(screen.getByText('共 3 集（一个系列最多 50 集）')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: '预估分集与次数' }));
    expect(await screen.findByText('需要 3 次生成次数，剩余 10 次')).toBeInTheDocument();
    expect(screen.getByText('第一章 守灯人 · 800 字 · 预计时长 约 3分10秒')).toBeInTheDocument();
    expect(
      screen.getByText(
        '第2集中有平台可能限流的词：「加微信」（可改为「关注我」），请修改后再开始生成',
      ),
    ).toBeInTheDocument();
    const second = screen.getByRole('textbox', { name: '第2集标题' });
    expect(second).toHaveValue('青灯照剑 第2集');
    fireEvent.change(second, { target: { value: '林默下山' } });

    const create = screen.getByRole('button', { name: '创建系列，确认角色' });
    fireEvent.click(create);
    fireEvent.click(create);
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/video/series/9'),
    );
    const calls = server.calls('POST', '/api/series/create');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toMatchObject({
      type: 0,
      narration: 'chapter',
      title: '青灯照剑',
      source: { kind: 'book', bookId: 3, fromChapter: 1, toChapter: 3 },
      episodeTitles: ['青灯照剑 第1集', '林默下山', '青灯照剑 第3集'],
      settings: { aspect: '9:16' },
    });
    expect(calls[0]?.headers['idempotency-key']).toBeTruthy();
  });

  it('writes copy only: one promotional text per chapter by one tweets task, each saved into My copy once', async () => {
    let polls = 0;
    const text =
      tweetHeading('第一章 守灯人') +
      '林默的命运从这一章开始改变。' +
      TWEET_SEPARATOR +
      tweetHeading('第二章 逐出') +
      '一截灯芯，一块铜片。';
    const server = await backend.start({
      'GET /api/writing/get_platforms': () => ok([{ id: 1, name: '本地书库', builtin: true }]),
      'GET /api/writing/search': () => ok([BOOK]),
      'GET /api/writing/search_cbid': () => ok({ ...BOOK, chapters: CHAPTERS }),
      'GET /api/series/list': () => ok([]),
      'POST /api/writing/submit_tweets_task': () => ok({ taskId: 'w1' }),
      'GET /api/writing/gen_result': () => {
        polls += 1;
        return ok({
          taskId: 'w1',
          state: polls < 2 ? 'running' : 'succeeded',
          text: polls < 2 ? tweetHeading('第一章 守灯人') : text,
          engine: '本地写作引擎',
          error: null,
        });
      },
      'POST /api/video/save_text': () =>
        ok({ workId: 60 + server.calls('POST', '/api/video/save_text').length, revision: 1 }),
    });
    renderWithHost(<SeriesNewPage />, { route: '/video/series' });
    fireEvent.click(await screen.findByRole('radio', { name: '仅文案（每章一篇推文）' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '书籍' }));
    fireEvent.click(await screen.findByText('青灯照剑（示例 · 4 章）'));
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '结束章节' }));
    fireEvent.click((await screen.findAllByText('第二章 逐出')).at(-1) as HTMLElement);
    fireEvent.click(await screen.findByRole('button', { name: '生成每章推文' }));
    const save = await screen.findByRole('button', { name: '分章存入我的文案' }, { timeout: 8000 });
    expect(server.calls('POST', '/api/writing/submit_tweets_task')[0]?.body).toEqual({
      bookId: 3,
      chapterIds: [100, 101],
      kind: 'promo',
    });
    fireEvent.click(save);
    fireEvent.click(save);
    expect(await screen.findByText('已存入我的文案：2 篇')).toBeInTheDocument();
    const saves = server.calls('POST', '/api/video/save_text');
    expect(saves.map((call) => call.body)).toEqual([
      { type: 0, title: '青灯照剑 第一章 守灯人', text: '林默的命运从这一章开始改变。' },
      { type: 0, title: '青灯照剑 第二章 逐出', text: '一截灯芯，一块铜片。' },
    ]);
    expect(saves.map((call) => call.headers['idempotency-key'])).toEqual(['w1.0', 'w1.1']);
  });

  it('shows the plan’s refusal, naming the problem, and creates nothing', async () => {
    const server = await backend.start({
      'GET /api/writing/get_platforms': () => ok([{ id: 1, name: '本地书库', builtin: true }]),
      'GET /api/writing/search': () => ok([BOOK]),
      'GET /api/writing/search_cbid': () => ok({ ...BOOK, chapters: CHAPTERS }),
      'GET /api/series/list': () => ok([]),
      'POST /api/series/plan': () => refuse(400, '第2章「第二章 逐出」没有正文，请换一个章节范围'),
    });
    renderWithHost(<SeriesNewPage />, { route: '/video/series' });
    fireEvent.mouseDown(await screen.findByRole('combobox', { name: '书籍' }));
    fireEvent.click(await screen.findByText('青灯照剑（示例 · 4 章）'));
    await screen.findByRole('combobox', { name: '结束章节' });
    fireEvent.click(screen.getByRole('button', { name: '预估分集与次数' }));
    expect(
      await screen.findByText('第2章「第二章 逐出」没有正文，请换一个章节范围'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '创建系列，确认角色' })).not.toBeInTheDocument();
    expect(server.calls('POST', '/api/series/create')).toHaveLength(0);
  });
});

describe('/video/series/:id', () => {
  it('reviews the cast of a draft, then starts it after confirming the counts', async () => {
    const server = await backend.start({
      'GET /api/series/detail': () => ok(series()),
      'GET /api/role/get_roles': () => ok(ROLES),
      'POST /api/series/start': () =>
        ok(
          series({
            state: 'running',
            reservedCounts: 2,
            episodes: [
              episode(1, { state: 'running', stage: 'images', progress: 30, taskId: 't1' }),
              episode(2),
              episode(3),
            ],
          }),
        ),
      'GET /api/series/progress_stream': () => sseReply([], 60_000),
    });
    renderWithHost(<SeriesPage />, { route: '/video/series/9', path: '/video/series/:id' });
    expect(await screen.findByDisplayValue('林默')).toBeInTheDocument();
    expect(screen.getByDisplayValue('沈青禾')).toBeInTheDocument();
    expect(screen.getByText(/角色提取方式：本地角色提取/)).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: '开始生成' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('将预留 3 次生成次数，按集顺序逐集生成。')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: '开始生成' }));
    expect(await screen.findByRole('group', { name: '第1集 青灯照剑 第1集' })).toBeInTheDocument();
    expect(screen.getByText('正在画面')).toBeInTheDocument();
    expect(server.calls('POST', '/api/series/start')[0]?.body).toEqual({ seriesId: 9 });
  });

  it('says how many counts are missing and starts only the first episodes when asked', async () => {
    const server = await backend.start({
      'GET /api/series/detail': () => ok(series()),
      'GET /api/role/get_roles': () => ok(ROLES),
      'POST /api/series/start': ({ body }) =>
        (body as { episodes?: number }).episodes === 2
          ? ok(series({ state: 'running' }))
          : refuse(402, '漫剪视频的生成次数不够：这个系列需要 3 次，剩余 2 次，可以先生成前 2 集'),
      'GET /api/series/progress_stream': () => sseReply([], 60_000),
    });
    renderWithHost(<SeriesPage />, { route: '/video/series/9', path: '/video/series/:id' });
    fireEvent.click(await screen.findByRole('button', { name: '开始生成' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '开始生成' }),
    );
    expect(
      await screen.findByText(
        '漫剪视频的生成次数不够：这个系列需要 3 次，剩余 2 次，可以先生成前 2 集',
      ),
    ).toBeInTheDocument();
    fireEvent.change(screen.getByRole('spinbutton', { name: '生成集数' }), {
      target: { value: '2' },
    });
    expect(screen.getByText('只生成前 2 集，其余 1 集取消')).toBeInTheDocument();
    // The page's button (the dialog of the refused start is still open behind the message).
    fireEvent.click(screen.getAllByRole('button', { name: '开始生成' })[0] as HTMLElement);
    fireEvent.click(
      within(await screen.findByRole('dialog', { name: '开始生成 2 集？' })).getByRole('button', {
        name: '开始生成',
      }),
    );
    await waitFor(() => expect(server.calls('POST', '/api/series/start')).toHaveLength(2));
    expect(server.calls('POST', '/api/series/start')[1]?.body).toEqual({
      seriesId: 9,
      episodes: 2,
    });
  });

  it('follows the episodes live, retries a failed one, cancels the rest, and offers the ZIP', async () => {
    const running = series({
      state: 'running',
      reservedCounts: 1,
      episodes: [
        episode(1, {
          state: 'running',
          stage: 'images',
          progress: 40,
          taskId: 't1',
          etaSeconds: 50,
        }),
        episode(2),
        episode(3),
      ],
    });
    const later = series({
      state: 'running',
      reservedCounts: 1,
      episodes: [
        episode(1, {
          state: 'succeeded',
          progress: 100,
          taskId: 't1',
          videoUrl: '/media/7/t1/video.mp4',
          coverUrl: '/media/7/t1/cover.jpg',
        }),
        episode(2, {
          state: 'failed',
          taskId: 't2',
          error: '「画面」阶段失败（第 2 个分镜，服务：本地）：画面服务暂时不可用',
        }),
        episode(3),
      ],
    });
    const server = await backend.start({
      'GET /api/series/detail': () => ok(running),
      'GET /api/series/progress_stream': () => sseReply([{ event: 'progress', data: later }], 100),
      'POST /api/series/retry_episode': () =>
        ok({
          ...later,
          episodes: [later.episodes[0], episode(2, { state: 'queued', taskId: 't2b' }), episode(3)],
        }),
      'POST /api/series/cancel': () =>
        ok({
          ...later,
          state: 'cancelled',
          reservedCounts: 0,
          episodes: [later.episodes[0], later.episodes[1], episode(3, { state: 'cancelled' })],
        }),
    });
    renderWithHost(<SeriesPage />, { route: '/video/series/9', path: '/video/series/:id' });
    const first = await screen.findByRole('group', { name: '第1集 青灯照剑 第1集' });
    expect(within(first).getByText('正在画面 · 预计还需 约 50 秒')).toBeInTheDocument();

    const failed = await screen.findByRole('group', { name: '第2集 青灯照剑 第2集' });
    expect(
      await within(failed).findByText(
        '「画面」阶段失败（第 2 个分镜，服务：本地）：画面服务暂时不可用',
      ),
    ).toBeInTheDocument();
    const done = screen.getByRole('group', { name: '第1集 青灯照剑 第1集' });
    expect(within(done).getByText('已完成')).toBeInTheDocument();
    expect(within(done).getByRole('link', { name: '播放 第1集 青灯照剑 第1集' })).toHaveAttribute(
      'href',
      '/video/short/t1',
    );
    // A finished episode is offered as an editor's project; one still failing is not.
    expect(
      within(done).getByRole('button', { name: '导出剪映草稿 第1集 青灯照剑 第1集' }),
    ).toBeInTheDocument();
    expect(
      within(done)
        .getByRole('link', { name: '导出工程 第1集 青灯照剑 第1集' })
        .getAttribute('href'),
    ).toMatch(/\/api\/video\/export_project\?workId=41&format=mlt&taskId=t1$/);
    expect(within(failed).queryByRole('button', { name: /^导出剪映草稿/ })).not.toBeInTheDocument();
    const download = screen.getByRole('link', { name: '下载全部（ZIP）' });
    expect(download.getAttribute('href')).toMatch(/\/api\/series\/download\?seriesId=9$/);

    fireEvent.click(within(failed).getByRole('button', { name: '重新生成' }));
    fireEvent.click(
      within(await screen.findByRole('dialog')).getByRole('button', { name: '重新生成' }),
    );
    await waitFor(() =>
      expect(server.calls('POST', '/api/series/retry_episode')[0]?.body).toEqual({
        seriesId: 9,
        index: 2,
      }),
    );

    fireEvent.click(screen.getByRole('button', { name: '取消剩余分集' }));
    const ask = await screen.findByRole('dialog', { name: '取消剩余的分集？' });
    expect(
      within(ask).getByText('未开始的 1 集将取消，预留的 1 次生成次数退回；正在生成的一集会完成。'),
    ).toBeInTheDocument();
    fireEvent.click(within(ask).getByRole('button', { name: '取消剩余分集' }));
    await waitFor(() => expect(server.calls('POST', '/api/series/cancel')).toHaveLength(1));
    const last = await screen.findByRole('group', { name: '第3集 青灯照剑 第3集' });
    expect(await within(last).findByText('已取消')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '取消剩余分集' })).not.toBeInTheDocument();
  });
});
