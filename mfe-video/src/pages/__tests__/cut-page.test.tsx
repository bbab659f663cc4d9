import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CutSegment, CutVideo } from '@kol/shared-sdk';
import {
  ok,
  refuse,
  renderWithHost,
  startFakeBackend,
  type FakeBackend,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import { quietBackendRoutes } from '../../testing/backend';
import {
  MATERIALS,
  decompressionLimits,
  decompressionUser,
  demoCut,
} from '../../testing/decompression';
import { demoWorkDetail } from '../../testing/fixtures';
import { CutPage } from '../cut-page';

// Two shared cores run these pages slowly: wait longer than the default second for what a call
// brings, so a slow machine does not read as a broken page.
configure({ asyncUtilTimeout: 10_000 });

let backend: FakeBackend | undefined;

beforeEach(() => sessionStorage.clear());
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

const WORK = 41;
const ROUTE = `/video/cut?workId=${WORK}`;

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
  backend = await startFakeBackend(
    quietBackendRoutes({
      'GET /api/user/get_user_limit_info': () => ok(decompressionLimits()),
      'GET /api/video/work_info': () => ok(demoWorkDetail(WORK, { type: 1 })),
      'GET /api/cut_video/get_system_material_list': () =>
        ok({ items: MATERIALS, total: MATERIALS.length, pageIndex: 1, pageSize: 100 }),
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
    }),
  );
  return backend;
}

const location = () => screen.getByTestId('location').textContent;
const show = () => renderWithHost(<CutPage />, { route: ROUTE, user: decompressionUser() });
const segment = (n: number) => screen.getByRole('group', { name: `片段 ${n}` });
const mergeButton = () =>
  screen.findByRole('button', { name: '合成视频（剩余 1 次）' }, { timeout: 15_000 });

describe('/video/cut', () => {
  it('shows the segments with their speech and background, and re-speaks one after its edit', async () => {
    const server = await start(demoCut(WORK));
    show();
    expect(await screen.findByLabelText('第 1 个片段的文案', {}, { timeout: 15_000 })).toHaveValue(
      '深呼吸，放松肩膀。',
    );
    expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
      'src',
      `${server.origin}/media/7/t/segment-001-a.wav`,
    );
    expect(screen.getByTestId('cut-summary')).toHaveTextContent('2 个片段，配音共 3.1 秒');

    fireEvent.change(screen.getByLabelText('第 1 个片段的文案'), {
      target: { value: '慢慢吸气，放松肩膀。' },
    });
    expect(within(segment(1)).getByText('文案已修改，需要重新配音')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '重新配音第 1 个片段' }));

    await waitFor(() =>
      expect(screen.getByLabelText('第 1 个片段的配音')).toHaveAttribute(
        'src',
        `${server.origin}/media/7/t/segment-0-v1.wav`,
      ),
    );
    expect(server.calls('POST', '/api/cut_video/update_cut_video_data')[0]?.body).toMatchObject({
      workId: WORK,
      revision: 1,
      segments: [{ text: '慢慢吸气，放松肩膀。' }, { text: '让思绪慢慢沉静下来。' }],
    });
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts').map((c) => c.body)).toEqual([
      { workId: WORK, voiceId: 'espeak-cmn-f', speed: 1, indexes: [0] },
    ]);
    // The other segment kept its speech.
    expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
      'src',
      `${server.origin}/media/7/t/segment-001-a.wav`,
    );
  });

  it('a reload shows the segments as saved: the edit and its new speech', async () => {
    const server = await start(demoCut(WORK));
    const first = show();
    fireEvent.change(await screen.findByLabelText('第 2 个片段的文案'), {
      target: { value: '让呼吸慢下来。' },
    });
    fireEvent.click(screen.getByRole('button', { name: '重新配音第 2 个片段' }));
    await waitFor(() =>
      expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
        'src',
        `${server.origin}/media/7/t/segment-1-v1.wav`,
      ),
    );
    first.unmount();

    show();
    expect(await screen.findByLabelText('第 2 个片段的文案')).toHaveValue('让呼吸慢下来。');
    expect(screen.getByLabelText('第 2 个片段的配音')).toHaveAttribute(
      'src',
      `${server.origin}/media/7/t/segment-1-v1.wav`,
    );
    expect(screen.getByLabelText('第 1 个片段的文案')).toHaveValue('深呼吸，放松肩膀。');
  });

  it('saves an edit on the revision it read: a segment spoken in another tab since is merged in', async () => {
    const server = await start(demoCut(WORK));
    show();
    const text = await screen.findByLabelText('第 1 个片段的文案', {}, { timeout: 15_000 });
    fireEvent.change(text, { target: { value: '慢慢吸气，放松肩膀。' } });
    // Another tab spoke the second segment again meanwhile.
    const before = held.cut as CutVideo;
    held.cut = {
      ...before,
      revision: before.revision + 1,
      segments: before.segments.map((s, i) =>
        i === 1 ? { ...s, audioUrl: '/media/7/t/other-tab.wav' } : s,
      ),
    };
    fireEvent.click(screen.getByRole('button', { name: '重新配音第 1 个片段' }));
    await waitFor(() =>
      expect(server.calls('POST', '/api/cut_video/generate_cut_tts')).toHaveLength(1),
    );
    const saves = server
      .calls('POST', '/api/cut_video/update_cut_video_data')
      .map((call) => call.body as { revision: number; segments: CutSegment[] });
    expect(saves.map((body) => body.revision)).toEqual([1, 2]);
    expect(saves[1]?.segments.map((s) => s.text)).toEqual([
      '慢慢吸气，放松肩膀。',
      '让思绪慢慢沉静下来。',
    ]);
    expect(saves[1]?.segments[1]?.audioUrl).toBe('/media/7/t/other-tab.wav');
    expect(screen.queryByText('内容已在其他页面修改')).not.toBeInTheDocument();
  });

  it('speaks every segment of a new cut, then merges once, asked first, spending one merge count', async () => {
    const server = await start(demoCut(WORK, false));
    show();
    expect(await screen.findAllByText('还没有配音', {}, { timeout: 15_000 })).toHaveLength(2);
    fireEvent.click(await mergeButton());
    expect(
      (await screen.findAllByText('第 1 个片段还没有配音，请先生成配音')).length,
    ).toBeGreaterThan(0);
    expect(server.calls('POST', '/api/cut_video/end_cut_video')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: '生成全部配音' }));
    await waitFor(() => expect(screen.queryAllByText('还没有配音')).toHaveLength(0));
    expect(server.calls('POST', '/api/cut_video/generate_cut_tts')[0]?.body).toEqual({
      workId: WORK,
      voiceId: 'espeak-cmn-f',
      speed: 1,
    });

    fireEvent.click(await mergeButton());
    expect(
      await screen.findByText(/将消耗 1 次「解压视频」合成次数（当前剩余 1 次）/),
    ).toBeInTheDocument();
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: '确认合成' }));
    await waitFor(() => expect(location()).toBe(`/video/production?workId=${WORK}`));
    expect(server.calls('POST', '/api/cut_video/end_cut_video')).toHaveLength(1);
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(1);
    expect(server.calls('GET', '/api/video_edit/re_send_merge_request')).toHaveLength(0);
  });

  it('changes a segment’s background to another loop of the library', async () => {
    const server = await start(demoCut(WORK));
    show();
    const merge = await mergeButton();
    fireEvent.mouseDown(screen.getByLabelText('第 2 个片段的背景'));
    fireEvent.click(await screen.findByTitle('星夜'));
    fireEvent.click(merge);
    fireEvent.click(await screen.findByRole('button', { name: '确认合成' }, { timeout: 15_000 }));
    await waitFor(() => expect(location()).toBe(`/video/production?workId=${WORK}`));
    expect(server.calls('POST', '/api/cut_video/update_cut_video_data')[0]?.body).toMatchObject({
      segments: [{ materialId: -1 }, { materialId: -4, startMs: 0, endMs: 8000 }],
    });
  });

  it('after a failed merge offers 重新合成 (re_send_merge_request) and says why it failed', async () => {
    const server = await start(demoCut(WORK, true, { finished: true }), {
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
    show();
    expect(
      await screen.findByText('上次生成失败：第 2 个分镜的素材文件已丢失', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    fireEvent.click(
      await screen.findByRole('button', { name: '重新合成（剩余 1 次）' }, { timeout: 15_000 }),
    );
    fireEvent.click(await screen.findByRole('button', { name: '确认合成' }));
    await waitFor(() => expect(location()).toBe(`/video/production?workId=${WORK}`));
    expect(server.calls('GET', '/api/video_edit/re_send_merge_request')).toHaveLength(1);
    expect(server.calls('GET', '/api/video_edit/send_merge_request')).toHaveLength(0);
  });

  it('says why a merge was refused and stays', async () => {
    await start(demoCut(WORK), {
      'GET /api/video_edit/send_merge_request': () => refuse(400, '解压视频的合成次数已用完', 400),
    });
    show();
    fireEvent.click(await mergeButton());
    fireEvent.click(await screen.findByRole('button', { name: '确认合成' }));
    expect((await screen.findAllByText('解压视频的合成次数已用完')).length).toBeGreaterThan(0);
    expect(location()).toBe(ROUTE);
  });
});
