import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ok, renderWithHost, startFakeBackend, type FakeBackend } from '@kol/shared-sdk/testing';
import {
  ANIME_SCRIPT,
  ANIME_SHOTS,
  animeBackend,
  animeUser,
  boardShot,
  storyboardResult,
} from '../../testing/anime';
import { demoLimits } from '../../testing/fixtures';
import { AnimeAtcsPage } from '../anime-atcs-page';

let backend: FakeBackend | undefined;

beforeEach(() => sessionStorage.clear());
afterEach(async () => {
  await backend?.close();
  backend = undefined;
});

const render = () =>
  renderWithHost(<AnimeAtcsPage />, {
    route: '/video/animeAtcs/sb-1',
    path: '/video/animeAtcs/:taskId',
    user: animeUser(),
  });

const LONG = '这是一句非常非常长的台词'.repeat(6);

async function start(overrides = {}) {
  const { routes } = animeBackend(
    {
      text: ANIME_SCRIPT,
      settings: {
        aspect: '9:16',
        speed: 1,
        voiceId: 'espeak-cmn-f',
        // Two characters on one voice: the second speaks a little faster, as the render does.
        roleVoices: { 林舟: 'espeak-cmn-m', 掌柜: 'espeak-cmn-m' },
      },
      shots: [
        ANIME_SHOTS[0] ?? boardShot(0),
        { ...(ANIME_SHOTS[1] ?? boardShot(1)), imageUrl: '' },
        boardShot(2, { speaker: '掌柜', line: LONG }),
      ],
    },
    {
      'GET /api/video/get_work_result': () => ok(storyboardResult(31)),
      'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainGenCount: 2 })),
      'POST /api/video/tts_audition': ({ body }: { body: unknown }) => {
        const { text } = body as { text: string };
        return ok({ audioUrl: `/media/7/tts/${text.length}.wav`, durationMs: text.length * 250 });
      },
      'POST /api/video/gen_video': () => ok({ taskId: 'video-1' }),
      ...overrides,
    },
  );
  backend = await startFakeBackend(routes);
  return backend;
}

describe('/video/animeAtcs/:taskId', () => {
  it('speaks each shot in its speaker’s voice and shows its timing and the total', async () => {
    const server = await start();
    render();
    await waitFor(() =>
      expect(screen.getByLabelText('第 3 个镜头的时长')).toHaveTextContent(
        `${((LONG.length * 250) / 1000).toFixed(1)} 秒`,
      ),
    );
    expect(screen.getByLabelText('第 1 个镜头的时长')).toHaveTextContent('2.5 秒');
    expect(server.calls('POST', '/api/video/tts_audition').map((call) => call.body)).toEqual([
      { text: '夜里，林舟走进客栈。', voiceId: 'espeak-cmn-f', speed: 1 },
      { text: '掌柜，还有房吗？', voiceId: 'espeak-cmn-m', speed: 1 },
      { text: LONG, voiceId: 'espeak-cmn-m', speed: 1.15 },
    ]);
    const total = (10 + 8 + LONG.length) * 0.25;
    expect(screen.getByRole('status', { name: '成片概况' })).toHaveTextContent(
      `预计时长${total.toFixed(1)}秒`,
    );
    expect(screen.getByRole('button', { name: '播放第 2 个镜头的配音' })).toBeEnabled();
  });

  it('warns about a shot without a picture and a line too long for its shot', async () => {
    await start();
    render();
    const second = await screen.findByRole('group', { name: '检查镜头 2' });
    expect(
      within(second).getByText('没有画面：生成时会自动绘制，建议先在分镜页生成并检查'),
    ).toBeInTheDocument();
    const third = screen.getByRole('group', { name: '检查镜头 3' });
    expect(
      within(third).getByText(`台词 ${LONG.length} 字，超过 60 字：一个镜头放不下，建议拆分`),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: '检查镜头 1' })).queryByRole('alert'),
    ).toBeNull();
    expect(
      screen.getByText('2 个镜头有提醒，可以返回分镜修改；也可以直接生成'),
    ).toBeInTheDocument();
  });

  it('renders after a confirmation that names the count, then follows the task', async () => {
    const server = await start();
    render();
    fireEvent.click(await screen.findByRole('button', { name: '生成视频（剩余 2 次）' }));
    expect(
      await screen.findByText(/将消耗 1 次「AI漫剧」生成次数（当前剩余 2 次）/),
    ).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/gen_video')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: '确认生成' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/video/production?workId=31'),
    );
    expect(server.calls('POST', '/api/video/gen_video')[0]?.body).toEqual({ workId: 31 });
  });
});
