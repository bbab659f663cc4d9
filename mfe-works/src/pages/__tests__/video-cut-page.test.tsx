import { afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CutSegment, CutVideo } from '@kol/shared-sdk';
import {
  fakeBackendPerTest,
  installNodeEventSource,
  ok,
  refuse,
  renderWithHost,
  settle,
  type FakeBackend,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import {
  DECOMPRESSION_LOOPS,
  DECOMPRESSION_VOICES,
  decompressionLimits,
  decompressionUser,
  demoDecompressionCut,
  demoWorkDetail,
} from '../../testing/fixtures';
import { VideoCutPage } from '../video-cut-page';

const WORK = 41;
const ROUTE = `/video/cut?workId=${WORK}`;
/** Short waits so each test runs in well under a second of waiting. */
const TIMING = { saveDelayMs: 40, taskPollMs: 20, progressPollMs: 40 };

beforeAll(() => installNodeEventSource());
afterEach(async () => {
  // Unmount first: the page stops following its tasks before the backend goes away (declared
  // before fakeBackendPerTest, so it runs before the hook that closes the backend).
  cleanup();
  await settle(20);
});
const backend = fakeBackendPerTest();

/**
 * A backend holding one decompression work's cut data, changed by the calls as the server does:
 * every change moves its revision on, and a save based on an older one is refused (412).
 */
const held: { cut: CutVideo | null } = { cut: null };

async function start(initial: CutVideo, overrides: FakeRoutes = {}) {
  held.cut = initial;
  let spoken = 0;
  // Read and written through `held`, so a test can change the cut data as another tab does.
  const state = {
    get cut(): CutVideo {
      return held.cut as CutVideo;
    },
    set cut(next: CutVideo) {
      held.cut = { ...next, revision: (held.cut?.revision ?? 0) + 1 };
    },
  };
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(decompressionLimits()),
    'GET /api/video/work_info': () => ok(demoWorkDetail(WORK, { title: '海边解压', type: 1 })),
    'GET /api/edit/tts_list': () => ok(DECOMPRESSION_VOICES),
    'GET /api/edit/new_bg_music_list': () => ok([]),
    'GET /api/cut_video/get_system_material_list': () =>
      ok({
        items: DECOMPRESSION_LOOPS,
        total: DECOMPRESSION_LOOPS.length,
        pageIndex: 1,
        pageSize: 200,
      }),
    'GET /api/cut_video/get_cut_video': () => ok(state.cut),
    'POST /api/cut_video/update_cut_video_data': ({ body }) => {
      const { segments: sent, revision } = body as { segments: CutSegment[]; revision: number };
      if (revision !== state.cut.revision) {
        return refuse(412, '剪辑数据已在其他页面修改，请刷新后再编辑', 412);
      }
      // As the server: audio is kept only while the text is the one spoken.
      const before = state.cut;
      state.cut = {
        ...before,
        finished: false,
        segments: sent.map((s, i) =>
          s.text === before.segments[i]?.text ? s : { ...s, audioUrl: '', audioDurationMs: 0 },
        ),
      };
      return ok(state.cut);
    },
    'POST /api/cut_video/generate_cut_tts': ({ body }) => {
      const { indexes } = body as { indexes?: number[] };
      spoken += 1;
      state.cut = {
        ...state.cut,
        segments: state.cut.segments.map((s, i) =>
          !indexes || indexes.includes(i)
            ? { ...s, audioUrl: `/media/7/t/segment-${i}-v${spoken}.wav`, audioDurationMs: 2000 }
            : s,
        ),
      };
      return ok({ taskId: `speech-${spoken}` });
    },
    'GET /api/video/get_work_result': ({ query }) =>
      ok({
        workId: WORK,
        taskId: query.taskId ?? 'render-1',
        state: 'succeeded',
        stage: '',
        progress: 100,
        etaSeconds: null,
        stages: [],
        videoUrl: '',
        srtUrl: '',
        coverUrl: '',
        error: null,
      }),
    'POST /api/cut_video/end_cut_video': () => {
      state.cut = { ...state.cut, finished: true };
      return ok(null);
    },
    'GET /api/video_edit/send_merge_request': () => ok({ taskId: 'merge-1' }),
    'GET /api/video_edit/re_send_merge_request': () => ok({ taskId: 'merge-2' }),
    ...overrides,
  });
}

/** The page at `/video/cut?workId=41`, once the editor has opened on the work. */
async function show(route = ROUTE) {
  const rendered = renderWithHost(<VideoCutPage timing={TIMING} />, {
    route,
    path: '/video/cut',
    user: decompressionUser(),
  });
  await screen.findByText('视频编辑 · 海边解压');
  return rendered;
}

const location = () => screen.getByTestId('location').textContent;
// Queries by test id, label and text: role queries walk antd's large tree and are slow in jsdom.
const segment = (n: number) => screen.getByTestId(`segment-${n}`);
/** Selects a segment of the timeline (by its caption) for the panel. */
const choose = (n: number, caption: string) =>
  fireEvent.click(within(segment(n)).getByText(caption));
/** The button showing this text (antd spaces out two-character labels). */
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
  server
    .calls('POST', '/api/cut_video/update_cut_video_data')
    .map((call) => call.body as { revision: number; segments: CutSegment[] });

describe('/video/cut (the works remote’s editor, outside the layout)', () => {
  it('shows the segments with their speech and background, and re-speaks one after its edit', async () => {
    const server = await start(demoDecompressionCut(WORK));
    await show();
    expect(screen.getByLabelText('片段文案')).toHaveValue('深呼吸，放松肩膀。');
    expect(await within(segment(1)).findByText('晨雾流光 · 0:00.0–0:08.0')).toBeInTheDocument();
    expect(screen.getByTestId('cut-summary')).toHaveTextContent(
      '共 2 个片段，都已配音，配音共 3.1 秒',
    );
    choose(2, '让思绪慢慢沉静下来。');
    expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
      'src',
      `${server.origin}/media/7/t/segment-001-a.wav`,
    );

    choose(1, '深呼吸，放松肩膀。');
    fireEvent.change(screen.getByLabelText('片段文案'), {
      target: { value: '慢慢吸气，放松肩膀。' },
    });
    expect(within(segment(1)).getByText('文案已修改，需要重新配音')).toBeInTheDocument();
    fireEvent.click(button('重新生成此片段'));

    await waitFor(() =>
      expect(screen.getByLabelText('第 1 个片段的配音')).toHaveAttribute(
        'src',
        `${server.origin}/media/7/t/segment-0-v1.wav`,
      ),
    );
    expect(within(segment(1)).queryByText('文案已修改，需要重新配音')).not.toBeInTheDocument();
    expect(saves(server)[0]).toMatchObject({
      workId: WORK,
      revision: 1,
      segments: [{ text: '慢慢吸气，放松肩膀。' }, { text: '让思绪慢慢沉静下来。' }],
    });
    // The work's own voice; no speed chosen, so the server's 1×.
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts').map((c) => c.body)).toEqual([
      { workId: WORK, voiceId: 'espeak-cmn-f', indexes: [0] },
    ]);
    // The other segment kept its speech.
    choose(2, '让思绪慢慢沉静下来。');
    expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
      'src',
      `${server.origin}/media/7/t/segment-001-a.wav`,
    );
  });

  it('a reload shows the segments as saved: the edit and its new speech', async () => {
    const server = await start(demoDecompressionCut(WORK));
    const first = await show();
    choose(2, '让思绪慢慢沉静下来。');
    fireEvent.change(screen.getByLabelText('片段文案'), { target: { value: '让呼吸慢下来。' } });
    fireEvent.click(button('重新生成此片段'));
    await waitFor(() =>
      expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
        'src',
        `${server.origin}/media/7/t/segment-1-v1.wav`,
      ),
    );
    first.unmount();

    await show();
    expect(within(segment(1)).getByText('深呼吸，放松肩膀。')).toBeInTheDocument();
    choose(2, '让呼吸慢下来。');
    expect(screen.getByLabelText('片段文案')).toHaveValue('让呼吸慢下来。');
    expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
      'src',
      `${server.origin}/media/7/t/segment-1-v1.wav`,
    );
  });

  it('saves an edit on the revision it read: a segment spoken in another tab since is merged in', async () => {
    const server = await start(demoDecompressionCut(WORK));
    await show();
    fireEvent.change(screen.getByLabelText('片段文案'), {
      target: { value: '慢慢吸气，放松肩膀。' },
    });
    // Another tab spoke the second segment again meanwhile.
    const before = held.cut as CutVideo;
    held.cut = {
      ...before,
      revision: before.revision + 1,
      segments: before.segments.map((s, i) =>
        i === 1 ? { ...s, audioUrl: '/media/7/t/other-tab.wav' } : s,
      ),
    };
    fireEvent.click(button('重新生成此片段'));
    await waitFor(() =>
      expect(server.calls('POST', '/api/cut_video/generate_cut_tts')).toHaveLength(1),
    );
    expect(saves(server).map((body) => body.revision)).toEqual([1, 2]);
    expect(saves(server)[1]?.segments.map((s) => s.text)).toEqual([
      '慢慢吸气，放松肩膀。',
      '让思绪慢慢沉静下来。',
    ]);
    expect(saves(server)[1]?.segments[1]?.audioUrl).toBe('/media/7/t/other-tab.wav');
    expect(screen.queryByText('内容已在其他页面修改')).not.toBeInTheDocument();
  });

  it('speaks every segment of a new cut, then merges once, asked first, spending one merge count', async () => {
    const server = await start(demoDecompressionCut(WORK, false));
    await show();
    expect(screen.getAllByText('未配音')).toHaveLength(2);
    // No merge before every segment is spoken: nothing is ended.
    expect(button('还有 2 个片段未配音')).toBeDisabled();
    expect(screen.queryByText('重新合成')).not.toBeInTheDocument();
    expect(server.calls('POST', '/api/cut_video/end_cut_video')).toHaveLength(0);

    fireEvent.click(button('全部配音'));
    // While the speech runs a segment says 配音中…: wait for its end.
    expect(await screen.findByText('全部片段配音已生成')).toBeInTheDocument();
    expect(screen.queryAllByText('未配音')).toHaveLength(0);
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[0]?.body).toEqual({
      workId: WORK,
      voiceId: 'espeak-cmn-f',
    });

    fireEvent.click(button('重新合成'));
    const modal = await dialog();
    expect(
      within(modal).getByText(/将消耗 1 次「解压视频」合成次数（当前剩余 1 次）/),
    ).toBeInTheDocument();
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(0);
    fireEvent.click(button('确认合成', modal));
    // The video flow's progress page follows the merge, as it follows every render of the flow.
    await waitFor(() => expect(location()).toBe(`/video/production?workId=${WORK}`));
    expect(server.calls('POST', '/api/cut_video/end_cut_video')).toHaveLength(1);
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(1);
    expect(server.calls('GET', '/api/video_edit/re_send_merge_request')).toHaveLength(0);
  });

  it('changes a segment’s background to another loop of the library', async () => {
    const server = await start(demoDecompressionCut(WORK));
    await show();
    choose(2, '让思绪慢慢沉静下来。');
    fireEvent.mouseDown(screen.getByLabelText('背景素材'));
    fireEvent.click(await screen.findByTitle('星夜'));
    expect(within(segment(2)).getByText('星夜 · 0:00.0–0:08.0')).toBeInTheDocument();
    fireEvent.click(button('重新合成'));
    fireEvent.click(button('确认合成', await dialog()));
    await waitFor(() => expect(location()).toBe(`/video/production?workId=${WORK}`));
    expect(saves(server)[0]).toMatchObject({
      segments: [{ materialId: -1 }, { materialId: -4, startMs: 0, endMs: 8000 }],
    });
  });

  it('after a failed merge offers 重新合成 (re_send_merge_request) and says why it failed', async () => {
    const server = await start(demoDecompressionCut(WORK, true, { finished: true }), {
      'GET /api/video/get_work_result': () =>
        ok({
          workId: WORK,
          taskId: 'merge-1',
          state: 'failed',
          stage: 'compose',
          progress: 40,
          etaSeconds: null,
          stages: [],
          videoUrl: '',
          srtUrl: '',
          coverUrl: '',
          error: '第 2 个分镜的素材文件已丢失',
        }),
    });
    await show();
    expect(
      await screen.findByText('「合成」阶段失败：第 2 个分镜的素材文件已丢失'),
    ).toBeInTheDocument();
    fireEvent.click(button('重新合成'));
    fireEvent.click(button('确认合成', await dialog()));
    await waitFor(() => expect(location()).toBe(`/video/production?workId=${WORK}`));
    expect(server.calls('GET', '/api/video_edit/re_send_merge_request')).toHaveLength(1);
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(0);
  });

  it('says why a merge was refused and stays', async () => {
    await start(demoDecompressionCut(WORK), {
      'GET /api/video_edit/send_merge_request': () => refuse(400, '解压视频的合成次数已用完', 400),
    });
    await show();
    fireEvent.click(button('重新合成'));
    fireEvent.click(button('确认合成', await dialog()));
    expect((await screen.findAllByText('解压视频的合成次数已用完')).length).toBeGreaterThan(0);
    expect(location()).toBe(ROUTE);
  });

  it('offers an overseas decompression work English voices', async () => {
    const server = await start(demoDecompressionCut(WORK, true, { voiceId: 'espeak-en-us-f' }), {
      'GET /api/video/work_info': () => ok(demoWorkDetail(WORK, { title: '海边解压', type: 6 })),
    });
    await show();
    await waitFor(() =>
      expect(server.calls('GET', '/api/edit/tts_list')[0]?.query).toEqual({ language: 'en' }),
    );
  });

  it.each(['/video/cut', '/video/cut?workId=abc', '/video/cut?workId=0'])(
    'says in %s that no work is named, with the way back, and asks for nothing',
    async (route) => {
      const server = await backend.start({});
      renderWithHost(<VideoCutPage timing={TIMING} />, {
        route,
        path: '/video/cut',
        user: decompressionUser(),
      });
      expect(
        screen.getByText('没有指定作品：请从解压视频的结果页进入片段编辑'),
      ).toBeInTheDocument();
      // Outside the layout no menu is around the page: it leads back itself.
      expect(screen.getByText('视频合成').closest('a')).toHaveAttribute('href', '/video');
      await settle();
      expect(server.seen).toHaveLength(0);
    },
  );
});
