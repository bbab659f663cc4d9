import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CutSegment, CutVideo, ImageResult } from '@kol/shared-sdk';
import {
  fakeBackendPerTest,
  installNodeEventSource,
  ok,
  refuse,
  renderWithHost,
  settle,
  sseReply,
  type FakeBackend,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import {
  demoCutLimits,
  demoCutResult,
  demoCutSegment,
  demoCutVideo,
  demoCutVoices,
  demoWorkDetail,
} from '../../testing/fixtures';
import { CutPage } from '../cut-page';

const WORK_ID = 12;
/** Short waits so each test runs in well under a second of waiting. */
const TIMING = { saveDelayMs: 40, taskPollMs: 20, progressPollMs: 40 };
/**
 * For the merges followed by their progress stream: a task is polled until its stream first
 * speaks, and these streams speak after 50 ms, so the poll waits longer (a real server's first
 * poll answers the merge just queued; this backend answers the video made before).
 */
const STREAM_TIMING = { ...TIMING, progressPollMs: 300 };

beforeAll(() => installNodeEventSource());

afterEach(async () => {
  // Unmount first: the page stops following its tasks before the backend goes away (declared
  // before fakeBackendPerTest, so it runs before the hook that closes the backend).
  cleanup();
  await settle(20);
});
const backend = fakeBackendPerTest();

interface SaveBody {
  workId: number;
  revision: number;
  segments: CutSegment[];
  musicId?: number | null;
  musicVolume?: number | null;
}

/**
 * A backend holding one comic work and its cut data: saves are kept (a segment whose text
 * changed loses its audio, as on the server) and answered with the stored cut video; a save
 * based on an older revision is refused as the server refuses it (412).
 */
function cutRoutes(initial: CutVideo = demoCutVideo(WORK_ID), overrides: FakeRoutes = {}) {
  const state = { cut: initial };
  const routes: FakeRoutes = {
    'GET /api/video/work_info': () => ok(demoWorkDetail(WORK_ID, { title: '星河旧梦', type: 0 })),
    'GET /api/video/get_work_result': () => ok(demoCutResult(WORK_ID)),
    'GET /api/cut_video/get_cut_video': () => ok(state.cut),
    'POST /api/cut_video/update_cut_video_data': ({ body }) => {
      const saved = body as SaveBody;
      if (saved.revision !== state.cut.revision)
        return refuse(412, '剪辑数据已在其他页面修改，请刷新后再编辑', 412);
      state.cut = {
        ...state.cut,
        revision: state.cut.revision + 1,
        segments: saved.segments.map((segment, index) => {
          const before = state.cut.segments.find((s) => s.audioUrl === segment.audioUrl);
          const kept = before && before.text === segment.text && segment.audioUrl;
          return kept ? { ...segment, index } : { ...segment, index, audioUrl: '' };
        }),
        ...(saved.musicId !== undefined ? { musicId: saved.musicId } : {}),
        ...(saved.musicVolume !== undefined ? { musicVolume: saved.musicVolume } : {}),
        finished: false,
      };
      return ok(state.cut);
    },
    'GET /api/edit/tts_list': () => ok(demoCutVoices()),
    'GET /api/edit/new_bg_music_list': () =>
      ok([
        {
          musicId: -2,
          name: '平静钢琴',
          url: '/media/music/piano.mp3',
          durationMs: 60_000,
          tags: [],
        },
      ]),
    ...overrides,
  };
  return { routes, state };
}

async function renderPage(routes: FakeRoutes, timing = TIMING) {
  const server = await backend.start(routes);
  renderWithHost(<CutPage timing={timing} />, {
    route: `/work/cut/${WORK_ID}`,
    path: '/work/cut/:id',
  });
  await screen.findByText('视频编辑 · 星河旧梦');
  return server;
}

// Queries by test id, label and text: role queries walk antd's large tree and are slow in jsdom.
const segment = (n: number) => screen.getByTestId(`segment-${n}`);
/** The button showing this text (antd spaces out two-character labels: 重 试). */
const button = (text: string | RegExp, root: HTMLElement = document.body) => {
  const found = within(root).getByText(text, { selector: 'button, button *' }).closest('button');
  if (!found) throw new Error(`no button ${String(text)}`);
  return found;
};
const dialog = async () => {
  await screen.findAllByText('重新合成视频');
  const found = document.querySelector<HTMLElement>('.ant-modal');
  if (!found) throw new Error('no dialog');
  return found;
};
const saves = (server: FakeBackend) =>
  server.calls('POST', '/api/cut_video/update_cut_video_data').map((call) => call.body as SaveBody);

describe('/work/cut/:id video editor', () => {
  it('shows the video and the timeline: pictures, captions, voices and lengths', async () => {
    const cut = demoCutVideo(WORK_ID, {
      segments: [
        demoCutSegment(0),
        demoCutSegment(1, { voiceId: 'zh-male-1' }),
        demoCutSegment(2, { audioUrl: '', audioDurationMs: undefined }),
      ],
    });
    const server = await renderPage(cutRoutes(cut).routes);
    expect(screen.getByLabelText('视频播放器')).toHaveAttribute(
      'src',
      `${server.origin}/media/works/12/video.mp4`,
    );
    expect(segment(1)).toHaveAttribute('role', 'group');
    expect(segment(1)).toHaveAttribute('aria-label', '片段 1');
    expect(within(segment(1)).getByText('第 1 段文案。')).toBeInTheDocument();
    expect(within(segment(1)).getByAltText('片段 1 画面')).toHaveAttribute(
      'src',
      `${server.origin}/media/shots/shot-0.png`,
    );
    expect(within(segment(1)).getByText('3秒')).toBeInTheDocument();
    expect(await within(segment(1)).findByText('温柔女声（整体）')).toBeInTheDocument();
    expect(within(segment(2)).getByText('沉稳男声')).toBeInTheDocument();
    expect(within(segment(2)).getByText('4秒')).toBeInTheDocument();
    expect(within(segment(3)).getByText('未配音')).toBeInTheDocument();
    expect(server.calls('GET', '/api/cut_video/get_cut_video')[0]?.query).toEqual({ workId: '12' });
    expect(screen.getByTestId('save-state')).toHaveTextContent('已保存');
  });

  it('saves an edited caption after the typing pauses, with the indicator', async () => {
    const server = await renderPage(cutRoutes().routes);
    const caption = screen.getByLabelText('片段文案');
    expect(caption).toHaveValue('第 1 段文案。');
    fireEvent.change(caption, { target: { value: '改' } });
    fireEvent.change(caption, { target: { value: '改过的第一段。' } });
    expect(screen.getByTestId('save-state')).toHaveTextContent('保存中…');
    // The spoken audio no longer matches the text.
    expect(within(segment(1)).getByText('未配音')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent('已保存'));
    // One save for the two changes (debounced), the whole list in order.
    expect(saves(server)).toHaveLength(1);
    expect(saves(server)[0]?.segments.map((s) => [s.index, s.text])).toEqual([
      [0, '改过的第一段。'],
      [1, '第 2 段文案。'],
      [2, '第 3 段文案。'],
    ]);
    expect(saves(server)[0]?.segments[0]?.audioUrl).toBe('');
    expect(within(segment(1)).getByText('改过的第一段。')).toBeInTheDocument();
  });

  it('saves on the revision it loaded, then on the one each save answered', async () => {
    const server = await renderPage(cutRoutes().routes);
    const caption = screen.getByLabelText('片段文案');
    fireEvent.change(caption, { target: { value: '第一次改。' } });
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent('已保存'));
    fireEvent.change(caption, { target: { value: '第二次改。' } });
    await waitFor(() => expect(saves(server)).toHaveLength(2));
    expect(saves(server).map((body) => body.revision)).toEqual([1, 2]);
  });

  it('merges another tab’s save of another segment, and shows both', async () => {
    const { routes, state } = cutRoutes();
    const server = await renderPage(routes);
    // The other tab saved segment 3 after this page loaded.
    state.cut = {
      ...state.cut,
      revision: 2,
      segments: state.cut.segments.map((s, i) =>
        i === 2 ? { ...s, text: '另一个标签页改的。' } : s,
      ),
    };
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '这里改的第一段。' } });
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent('已保存'));
    expect(saves(server).map((body) => body.revision)).toEqual([1, 2]);
    expect(state.cut.segments.map((s) => s.text)).toEqual([
      '这里改的第一段。',
      '第 2 段文案。',
      '另一个标签页改的。',
    ]);
    expect(await within(segment(3)).findByText('另一个标签页改的。')).toBeInTheDocument();
    expect(within(segment(1)).getByText('这里改的第一段。')).toBeInTheDocument();
  });

  it('asks when another tab changed the same caption, keeping the typed text', async () => {
    const { routes, state } = cutRoutes();
    const server = await renderPage(routes);
    state.cut = {
      ...state.cut,
      revision: 2,
      segments: state.cut.segments.map((s, i) => (i === 0 ? { ...s, text: '别处改的。' } : s)),
    };
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '我打的字。' } });
    expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('片段文案')).toHaveValue('我打的字。');
    expect(state.cut.segments[0]?.text).toBe('别处改的。');
    fireEvent.click(button('保留我的修改'));
    await waitFor(() => expect(state.cut.segments[0]?.text).toBe('我打的字。'));
    expect(saves(server).map((body) => body.revision)).toEqual([1, 2]);
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent('已保存'));
  });

  it('loads the newest data when the person chooses 载入最新内容', async () => {
    const { routes, state } = cutRoutes();
    const server = await renderPage(routes);
    state.cut = {
      ...state.cut,
      revision: 2,
      segments: state.cut.segments.map((s, i) => (i === 0 ? { ...s, text: '别处改的。' } : s)),
    };
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '我打的字。' } });
    fireEvent.click(await screen.findByText('载入最新内容', { selector: 'button, button *' }));
    await waitFor(() => expect(screen.getByLabelText('片段文案')).toHaveValue('别处改的。'));
    expect(saves(server)).toHaveLength(1);
    expect(state.cut.segments[0]?.text).toBe('别处改的。');
  });

  it('keeps a caption whose save failed and sends the same text again with 重试', async () => {
    let refusing = true;
    const { routes } = cutRoutes();
    const save = routes['POST /api/cut_video/update_cut_video_data'];
    const server = await renderPage({
      ...routes,
      'POST /api/cut_video/update_cut_video_data': (request) =>
        refusing ? refuse(500, '数据库暂时不可用', 500) : (save?.(request) ?? ok(null)),
    });
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '不能丢的文字' } });
    expect(await screen.findByText('保存失败（数据库暂时不可用）')).toBeInTheDocument();
    expect(screen.getByLabelText('片段文案')).toHaveValue('不能丢的文字');
    refusing = false;
    fireEvent.click(button(/^重\s*试$/, screen.getByTestId('save-state')));
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent('已保存'));
    expect(saves(server).map((body) => body.segments[0]?.text)).toEqual([
      '不能丢的文字',
      '不能丢的文字',
    ]);
  });

  it('moves a segment with 上移 / 下移 and saves the new order', async () => {
    const server = await renderPage(cutRoutes().routes);
    fireEvent.click(screen.getByLabelText('下移片段 1'));
    expect(within(segment(2)).getByText('第 1 段文案。')).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('上移片段 3'));
    expect(within(segment(2)).getByText('第 3 段文案。')).toBeInTheDocument();
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    expect(saves(server)[0]?.segments.map((s) => [s.index, s.text, s.audioUrl])).toEqual([
      [0, '第 2 段文案。', '/media/cut/segment-1.wav'],
      [1, '第 3 段文案。', '/media/cut/segment-2.wav'],
      [2, '第 1 段文案。', '/media/cut/segment-0.wav'],
    ]);
    expect(screen.getByLabelText('上移片段 1')).toBeDisabled();
  });

  it('moves a segment by dragging it onto another', async () => {
    const server = await renderPage(cutRoutes().routes);
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: '',
      dropEffect: '',
    };
    fireEvent.dragStart(segment(3), { dataTransfer });
    fireEvent.dragOver(segment(1), { dataTransfer });
    fireEvent.drop(segment(1), { dataTransfer });
    expect(within(segment(1)).getByText('第 3 段文案。')).toBeInTheDocument();
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    expect(saves(server)[0]?.segments.map((s) => s.text)).toEqual([
      '第 3 段文案。',
      '第 1 段文案。',
      '第 2 段文案。',
    ]);
  });

  it('changes a segment’s voice and speed, auditions it first, and saves them', async () => {
    const server = await renderPage({
      ...cutRoutes().routes,
      'POST /api/video/tts_audition': () =>
        ok({ audioUrl: '/media/tries/try-1.mp3', durationMs: 2500 }),
    });
    fireEvent.click(within(segment(2)).getByText('第 2 段文案。'));
    expect(screen.getByLabelText('片段文案')).toHaveValue('第 2 段文案。');
    fireEvent.mouseDown(screen.getByLabelText('片段配音'));
    fireEvent.click(await screen.findByTitle('沉稳男声'));
    fireEvent.change(screen.getByLabelText('语速'), { target: { value: '1.5' } });
    fireEvent.blur(screen.getByLabelText('语速'));
    fireEvent.click(button(/^试\s*听$/));
    const audio = await screen.findByLabelText('试听');
    expect(audio).toHaveAttribute('src', `${server.origin}/media/tries/try-1.mp3`);
    expect(server.calls('POST', '/api/video/tts_audition')[0]?.body).toEqual({
      text: '第 2 段文案。',
      voiceId: 'zh-male-1',
      speed: 1.5,
    });
    await waitFor(() => expect(screen.getByTestId('save-state')).toHaveTextContent('已保存'));
    const last = saves(server).at(-1)?.segments[1];
    expect(last).toMatchObject({ voiceId: 'zh-male-1', speed: 1.5, audioUrl: '' });
    expect(within(segment(2)).getByText('沉稳男声')).toBeInTheDocument();
  });

  it('redraws a segment’s picture (gen_img without a shot) and saves it', async () => {
    let polls = 0;
    const image = (state: ImageResult['state']): ImageResult => ({
      taskId: 'img-1',
      state,
      imageUrl: state === 'succeeded' ? '/media/images/new.png' : '',
      engine: '本地画面',
      error: null,
    });
    const server = await renderPage({
      ...cutRoutes().routes,
      'POST /api/video/gen_img': () => ok({ taskId: 'img-1' }),
      'GET /api/video/img_result': () => {
        polls += 1;
        return ok(image(polls < 2 ? 'running' : 'succeeded'));
      },
    });
    const prompt = screen.getByLabelText('画面描述');
    expect(prompt).toHaveValue('第 1 段文案。');
    fireEvent.change(prompt, { target: { value: '星空下的少年' } });
    fireEvent.click(button('重新绘制'));
    expect(await screen.findByText('新画面由「本地画面」绘制')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/gen_img')[0]?.body).toEqual({
      workId: WORK_ID,
      prompt: '星空下的少年',
    });
    expect(server.calls('GET', '/api/video/img_result')[0]?.query).toEqual({ taskId: 'img-1' });
    expect(within(segment(1)).getByAltText('片段 1 画面')).toHaveAttribute(
      'src',
      `${server.origin}/media/images/new.png`,
    );
    await waitFor(() =>
      expect(saves(server).at(-1)?.segments[0]?.imageUrl).toBe('/media/images/new.png'),
    );
    // The picture changes nothing spoken: the audio stays.
    expect(saves(server).at(-1)?.segments[0]?.audioUrl).toBe('/media/cut/segment-0.wav');
  });

  it('shows why a redraw failed', async () => {
    await renderPage({
      ...cutRoutes().routes,
      'POST /api/video/gen_img': () => ok({ taskId: 'img-2' }),
      'GET /api/video/img_result': () =>
        ok({
          taskId: 'img-2',
          state: 'failed',
          imageUrl: '',
          engine: '',
          error: '画面服务暂时不可用',
        } satisfies ImageResult),
    });
    fireEvent.click(button('重新绘制'));
    expect(await screen.findByText('绘制失败：画面服务暂时不可用')).toBeInTheDocument();
  });

  it('picks one of the uploaded pictures and checks a new upload first', async () => {
    const server = await renderPage({
      ...cutRoutes().routes,
      'GET /api/file/uploaded_imgs': () =>
        ok({
          items: [{ url: '/uploads/7/cat.png', name: 'cat.png', createTime: '2025-11-20' }],
          total: 1,
        }),
    });
    fireEvent.click(button('选择已上传图片'));
    const big = new File([new Uint8Array(6 * 1024 * 1024)], 'big.png', { type: 'image/png' });
    fireEvent.change(await screen.findByLabelText('上传新图片'), { target: { files: [big] } });
    expect(await screen.findByText('图片不能超过 5 MB')).toBeInTheDocument();
    fireEvent.click(await screen.findByLabelText('选择图片 cat.png'));
    expect(server.calls('GET', '/api/file/uploaded_imgs')[0]?.query).toEqual({
      pageIndex: '1',
      pageSize: '12',
    });
    await waitFor(() =>
      expect(saves(server).at(-1)?.segments[0]?.imageUrl).toBe('/uploads/7/cat.png'),
    );
    expect(server.calls('POST', '/api/file/upload_image')).toHaveLength(0);
  });

  it('regenerates one segment alone and shows its new audio', async () => {
    const { routes, state } = cutRoutes();
    let polls = 0;
    const server = await renderPage({
      ...routes,
      'POST /api/cut_video/generate_cut_tts': () => ok({ taskId: 'speech-1' }),
      'GET /api/video/get_work_result': ({ query }) => {
        if (query.taskId !== 'speech-1') return ok(demoCutResult(WORK_ID));
        polls += 1;
        if (polls < 2) return ok(demoCutResult(WORK_ID, { taskId: 'speech-1', state: 'running' }));
        state.cut = {
          ...state.cut,
          segments: state.cut.segments.map((s, i) =>
            i === 1 ? { ...s, audioUrl: '/media/cut/new-1.wav', audioDurationMs: 7000 } : s,
          ),
        };
        return ok(demoCutResult(WORK_ID, { taskId: 'speech-1' }));
      },
    });
    fireEvent.click(within(segment(2)).getByText('第 2 段文案。'));
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '新的第二段。' } });
    fireEvent.click(button('重新生成此片段'));
    expect(await within(segment(2)).findByText('配音中…')).toBeInTheDocument();
    expect(await within(segment(2)).findByText('7秒')).toBeInTheDocument();
    // Saved first, then spoken alone by its index, with the cut video's voice.
    expect(saves(server)[0]?.segments[1]?.text).toBe('新的第二段。');
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[0]?.body).toEqual({
      workId: WORK_ID,
      voiceId: 'zh-female-1',
      indexes: [1],
    });
    expect(server.calls('GET', '/api/cut_video/get_cut_video')).toHaveLength(2);
    expect(await screen.findByText('片段配音已生成')).toBeInTheDocument();
  });

  it('speaks with the 整体配音 and 整体语速 chosen; a segment’s own voice still wins', async () => {
    let runs = 0;
    const server = await renderPage({
      ...cutRoutes(
        demoCutVideo(WORK_ID, {
          segments: [demoCutSegment(0), demoCutSegment(1, { voiceId: 'zh-female-1' })],
        }),
      ).routes,
      'POST /api/cut_video/generate_cut_tts': () => ok({ taskId: `speech-${++runs}` }),
      'GET /api/video/get_work_result': ({ query }) =>
        ok(demoCutResult(WORK_ID, query.taskId ? { taskId: query.taskId } : {})),
    });
    expect(await within(segment(1)).findByText('温柔女声（整体）')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByLabelText('整体配音'));
    fireEvent.click(await screen.findByTitle('沉稳男声'));
    fireEvent.change(screen.getByLabelText('整体语速'), { target: { value: '1.2' } });
    fireEvent.blur(screen.getByLabelText('整体语速'));
    // The segments following the whole say so; the one with its own voice keeps it.
    expect(within(segment(1)).getByText('沉稳男声（整体）')).toBeInTheDocument();
    expect(within(segment(2)).getByText('温柔女声')).toBeInTheDocument();
    fireEvent.click(button('全部配音'));
    expect(await screen.findByText('全部片段配音已生成')).toBeInTheDocument();
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[0]?.body).toEqual({
      workId: WORK_ID,
      voiceId: 'zh-male-1',
      speed: 1.2,
    });
    // Nothing is saved by choosing them: the speech carries them.
    expect(saves(server)).toHaveLength(0);
  });

  it('saves the music and its volume', async () => {
    const server = await renderPage(cutRoutes().routes);
    const handle = screen.getByLabelText('音乐音量');
    expect(handle).toHaveAttribute('aria-valuenow', '35');
    fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39, which: 39 });
    fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39, which: 39 });
    await waitFor(() => expect(saves(server)).toHaveLength(1));
    expect(saves(server)[0]?.musicVolume).toBe(0.45);
    expect(saves(server)[0]?.musicId).toBeNull();
    fireEvent.mouseDown(screen.getByLabelText('背景音乐'));
    fireEvent.click(await screen.findByTitle('无音乐'));
    await waitFor(() => expect(saves(server)).toHaveLength(2));
    expect(saves(server)[1]).toMatchObject({ musicId: 0, musicVolume: 0.45 });
  });

  it('merges after confirming the count: end_cut_video, send_merge_request, then the new video', async () => {
    let merged = false;
    let done = false;
    const server = await renderPage(
      {
        ...cutRoutes().routes,
        'GET /api/user/get_user_limit_info': () => ok(demoCutLimits({ remainMergeCount: 3 })),
        'POST /api/cut_video/end_cut_video': () => ok(null),
        'GET /api/video_edit/send_merge_request': () => {
          merged = true;
          return ok({ taskId: 'merge-1' });
        },
        // The stream reports the merge at 60 %, then drops: the page polls get_work_result.
        'GET /api/video/progress_stream': () =>
          sseReply(
            [
              {
                event: 'progress',
                data: demoCutResult(WORK_ID, {
                  taskId: 'merge-1',
                  state: 'running',
                  stage: 'compose',
                  progress: 60,
                  videoUrl: '',
                }),
              },
            ],
            50,
          ),
        // Still at 60 % until the test has seen it: on a busy machine the stream's event and a
        // finished answer could land in one render, and the 60 % would never show.
        'GET /api/video/get_work_result': () =>
          ok(
            !merged
              ? demoCutResult(WORK_ID)
              : done
                ? demoCutResult(WORK_ID, {
                    taskId: 'merge-1',
                    videoUrl: '/media/works/12/merge-1.mp4',
                  })
                : demoCutResult(WORK_ID, {
                    taskId: 'merge-1',
                    state: 'running',
                    stage: 'compose',
                    progress: 60,
                    videoUrl: '',
                  }),
          ),
      },
      STREAM_TIMING,
    );
    fireEvent.click(button('重新合成'));
    const modal = await dialog();
    expect(
      within(modal).getByText('将消耗 1 次「漫剪视频」合成次数（当前剩余 3 次）。'),
    ).toBeInTheDocument();
    expect(merged).toBe(false);
    fireEvent.click(button('确认合成', modal));
    expect(await screen.findByText('正在合成 · 60%')).toBeInTheDocument();
    done = true;
    expect(await screen.findByText('新视频已生成（时长 12秒）')).toBeInTheDocument();
    expect(screen.getByLabelText('视频播放器')).toHaveAttribute(
      'src',
      `${server.origin}/media/works/12/merge-1.mp4`,
    );
    expect(server.calls('POST', '/api/cut_video/end_cut_video')[0]?.body).toEqual({
      workId: WORK_ID,
    });
    expect(server.calls('GET', '/api/video_edit/send_merge_request')[0]?.query).toEqual({
      workId: '12',
    });
    const order = server.seen
      .map((request) => request.path)
      .filter((path) => path.includes('end_cut_video') || path.includes('merge_request'));
    expect(order).toEqual(['/api/cut_video/end_cut_video', '/api/video_edit/send_merge_request']);
    expect(server.calls('GET', '/api/video/progress_stream')[0]?.query).toEqual({ workId: '12' });
  });

  it('names the failed stage of a merge and sends it again with re_send_merge_request', async () => {
    const failure = '「合成」阶段失败（服务：ffmpeg）：编码器退出';
    const server = await renderPage(
      {
        ...cutRoutes().routes,
        'GET /api/user/get_user_limit_info': () => ok(demoCutLimits({ remainMergeCount: 2 })),
        'POST /api/cut_video/end_cut_video': () => ok(null),
        'GET /api/video_edit/send_merge_request': () => ok({ taskId: 'merge-1' }),
        'GET /api/video_edit/re_send_merge_request': () => ok({ taskId: 'merge-2' }),
        'GET /api/video/progress_stream': () =>
          sseReply(
            [
              {
                event: 'done',
                data: demoCutResult(WORK_ID, {
                  taskId: server.calls('GET', '/api/video_edit/re_send_merge_request').length
                    ? 'merge-2'
                    : 'merge-1',
                  state: 'failed',
                  stage: 'compose',
                  stages: [{ name: 'compose', state: 'failed', progress: 0, error: failure }],
                  videoUrl: '',
                  error: failure,
                }),
              },
            ],
            50,
          ),
      },
      STREAM_TIMING,
    );
    fireEvent.click(button('重新合成'));
    fireEvent.click(button('确认合成', await dialog()));
    expect(await screen.findAllByText(failure)).not.toHaveLength(0);
    // The video made before stays in the player.
    expect(screen.getByLabelText('视频播放器')).toHaveAttribute(
      'src',
      `${server.origin}/media/works/12/video.mp4`,
    );
    await waitFor(() => expect(document.querySelector('.ant-modal')).toBeNull());
    fireEvent.click(button('重新合成'));
    fireEvent.click(button('确认合成', await dialog()));
    await waitFor(() =>
      expect(server.calls('GET', '/api/video_edit/re_send_merge_request')).toHaveLength(1),
    );
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(1);
    expect(server.calls('POST', '/api/cut_video/end_cut_video')).toHaveLength(2);
  });

  it('shows a background material’s window instead of a picture chooser', async () => {
    const cut = demoCutVideo(WORK_ID, {
      segments: [
        demoCutSegment(0, { materialId: -1, startMs: 0, endMs: 5300, imageUrl: undefined }),
        demoCutSegment(1, { materialId: -1, startMs: 5300, endMs: 9000, imageUrl: undefined }),
      ],
    });
    const server = await renderPage({
      ...cutRoutes(cut).routes,
      'GET /api/video/work_info': () => ok(demoWorkDetail(WORK_ID, { title: '星河旧梦', type: 1 })),
      'GET /api/cut_video/get_system_material_list': () =>
        ok({
          items: [
            {
              materialId: -1,
              name: '彩色沙子',
              coverUrl: '/media/materials/sand.jpg',
              videoUrl: '/media/materials/sand.mp4',
              durationMs: 30_000,
              source: 0,
              tagIds: [1],
            },
          ],
          total: 1,
        }),
    });
    expect(await within(segment(2)).findByText('彩色沙子 · 0:05.3–0:09.0')).toBeInTheDocument();
    expect(within(segment(1)).getByAltText('片段 1 画面')).toHaveAttribute(
      'src',
      `${server.origin}/media/materials/sand.jpg`,
    );
    expect(screen.getByText('彩色沙子：0:00.0 – 0:05.3')).toBeInTheDocument();
    expect(screen.queryByText('重新绘制')).not.toBeInTheDocument();
    expect(screen.queryByText('选择已上传图片')).not.toBeInTheDocument();
  });

  it('shows a refused merge (402) and keeps the dialog open', async () => {
    await renderPage({
      ...cutRoutes().routes,
      'GET /api/user/get_user_limit_info': () => ok(demoCutLimits({ remainMergeCount: 1 })),
      'POST /api/cut_video/end_cut_video': () => ok(null),
      'GET /api/video_edit/send_merge_request': () => refuse(402, '「漫剪视频」合成次数已用完'),
    });
    fireEvent.click(button('重新合成'));
    const modal = await dialog();
    fireEvent.click(button('确认合成', modal));
    expect(await screen.findByText('「漫剪视频」合成次数已用完')).toBeInTheDocument();
    await settle();
    expect(modal).toBeInTheDocument();
    expect(button('确认合成', modal)).toBeEnabled();
  });

  it('before a merge, speaks the segments without a voice and only those; 全部配音 speaks all', async () => {
    const cut = demoCutVideo(WORK_ID, {
      segments: [
        demoCutSegment(0, { audioUrl: '', audioDurationMs: undefined }),
        demoCutSegment(1),
        demoCutSegment(2, { audioUrl: '', audioDurationMs: undefined }),
      ],
    });
    // A new task id for each run, as the server gives: a task is followed by its id.
    let runs = 0;
    const server = await renderPage({
      ...cutRoutes(cut).routes,
      'POST /api/cut_video/generate_cut_tts': () => ok({ taskId: `speech-${++runs}` }),
      'GET /api/video/get_work_result': ({ query }) =>
        ok(demoCutResult(WORK_ID, query.taskId ? { taskId: query.taskId } : {})),
    });
    expect(button('还有 2 个片段未配音')).toBeDisabled();
    expect(screen.queryByText('重新合成')).not.toBeInTheDocument();
    // The second segment keeps its voice (the one of the finished video): it is not asked for.
    fireEvent.click(button('为未配音片段配音'));
    await waitFor(() =>
      expect(server.calls('POST', '/api/cut_video/generate_cut_tts')).toHaveLength(1),
    );
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[0]?.body).toEqual({
      workId: WORK_ID,
      voiceId: 'zh-female-1',
      indexes: [0, 2],
    });
    expect(await screen.findByText('片段配音已生成')).toBeInTheDocument();
    // 全部配音 is the explicit way to speak every segment again.
    fireEvent.click(button('全部配音'));
    await waitFor(() =>
      expect(server.calls('POST', '/api/cut_video/generate_cut_tts')).toHaveLength(2),
    );
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[1]?.body).toEqual({
      workId: WORK_ID,
      voiceId: 'zh-female-1',
    });
    expect(await screen.findByText('全部片段配音已生成')).toBeInTheDocument();
  });

  it('opens a finished video voiced: one caption changed, only it is spoken, then 重新合成', async () => {
    const { routes, state } = cutRoutes(
      demoCutVideo(WORK_ID, {
        segments: [
          demoCutSegment(0),
          demoCutSegment(1, { speaker: '林舟', voiceId: 'zh-male-1' }),
          demoCutSegment(2),
        ],
      }),
    );
    const server = await renderPage({
      ...routes,
      'POST /api/cut_video/generate_cut_tts': () => {
        state.cut = {
          ...state.cut,
          segments: state.cut.segments.map((s, i) =>
            i === 1 ? { ...s, audioUrl: '/media/cut/new-1.wav', audioDurationMs: 5000 } : s,
          ),
        };
        return ok({ taskId: 'speech-1' });
      },
      'GET /api/video/get_work_result': ({ query }) =>
        ok(demoCutResult(WORK_ID, query.taskId ? { taskId: query.taskId } : {})),
    });
    expect(screen.getByText(/共 3 个片段，都已配音/)).toBeInTheDocument();
    expect(within(segment(2)).getByText('角色：林舟')).toBeInTheDocument();
    fireEvent.click(within(segment(2)).getByText('第 2 段文案。'));
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '掌柜，还有房吗？' } });
    expect(await screen.findByText('还有 1 个片段未配音')).toBeInTheDocument();
    fireEvent.click(button('为未配音片段配音'));
    expect(await within(segment(2)).findByText('5秒')).toBeInTheDocument();
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[0]?.body).toEqual({
      workId: WORK_ID,
      voiceId: 'zh-female-1',
      indexes: [1],
    });
    // Saved with who says it and the others' voices as they were.
    const saved = saves(server).at(-1);
    expect(saved?.segments.map((s) => [s.text, s.audioUrl, s.speaker])).toEqual([
      ['第 1 段文案。', '/media/cut/segment-0.wav', undefined],
      ['掌柜，还有房吗？', '', '林舟'],
      ['第 3 段文案。', '/media/cut/segment-2.wav', undefined],
    ]);
    expect(button('重新合成')).toBeEnabled();
  });

  it('explains that a scroll video has no editing and no merge', async () => {
    await backend.start({
      'GET /api/video/work_info': () => ok(demoWorkDetail(WORK_ID, { title: '滚屏一号', type: 2 })),
      'GET /api/video/get_work_result': () => ok(demoCutResult(WORK_ID)),
      'GET /api/cut_video/get_cut_video': () => refuse(400, '该视频类型没有剪辑数据', 400),
    });
    renderWithHost(<CutPage timing={TIMING} />, { route: '/work/cut/12', path: '/work/cut/:id' });
    expect(
      await screen.findByText('滚屏视频没有剪辑与合成（按规格），可在作品列表中重新生成'),
    ).toBeInTheDocument();
    expect(screen.getByText('前往滚屏视频作品').closest('a')).toHaveAttribute(
      'href',
      '/work/scroll',
    );
    expect(screen.getByLabelText('视频播放器')).toBeInTheDocument();
    expect(screen.queryByText('重新合成')).not.toBeInTheDocument();
  });

  it('says the work does not exist (404) with a way back', async () => {
    await backend.start({
      'GET /api/video/work_info': () => refuse(404, '作品不存在', 404),
      'GET /api/video/get_work_result': () => refuse(404, '作品不存在', 404),
      'GET /api/cut_video/get_cut_video': () => refuse(404, '作品不存在', 404),
    });
    renderWithHost(<CutPage timing={TIMING} />, { route: '/work/cut/12', path: '/work/cut/:id' });
    expect(await screen.findByText('作品不存在')).toBeInTheDocument();
    fireEvent.click(button('返回作品列表'));
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/work$/);
  });
});
