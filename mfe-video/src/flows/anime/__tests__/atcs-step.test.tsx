import { LOCAL_FALLBACK_LABEL, LOCAL_FRAME_LABEL, type Shot } from '@kol/shared-sdk';
import { forgetServices } from '@kol/shared-sdk/ui';
import { beforeEach, describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { fakeBackendPerTest, ok, renderWithHost } from '@kol/shared-sdk/testing';
import {
  ANIME_SCRIPT,
  ANIME_SHOTS,
  animeBackend,
  animeUser,
  boardShot,
  storyboardResult,
} from '../../../testing/anime';
import { demoLimits } from '../../../testing/fixtures';
import { AnimeAtcsStep } from '../steps/atcs-step';

const backend = fakeBackendPerTest();

beforeEach(() => {
  // Each test is a fresh installation: its services are asked again.
  forgetServices();
});

const render = () =>
  renderWithHost(<AnimeAtcsStep />, {
    route: '/video/animeAtcs/sb-1',
    path: '/video/animeAtcs/:taskId',
    user: animeUser(),
  });

const LONG = '这是一句非常非常长的台词'.repeat(6);

const SHOTS: Shot[] = [
  ANIME_SHOTS[0] ?? boardShot(0),
  { ...(ANIME_SHOTS[1] ?? boardShot(1)), imageUrl: '' },
  boardShot(2, { speaker: '掌柜', line: LONG }),
];

async function start(overrides = {}, shots: Shot[] = SHOTS) {
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
      shots,
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
  return backend.start(routes);
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

  it('offline: counts every drawn picture as local, says why, and names the offline voice', async () => {
    await start({
      'GET /api/video/services': () => ok({ text: null, pictures: null, voice: null }),
    });
    render();
    const first = await screen.findByRole('group', { name: '检查镜头 1' });
    expect(
      await within(first).findByText(
        '画面是本地画面（未配置图像服务）：只有文字排版，不是生成的插画，配置图像服务后重新生成画面',
      ),
    ).toBeInTheDocument();
    expect(
      within(screen.getByRole('group', { name: '检查镜头 2' })).getByText(
        '没有画面：生成时会用本地画面代替（未配置图像服务），只有文字排版',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '成片概况' })).toHaveTextContent('有提醒的镜头3');
    expect(
      screen.getByText('未配置图像服务：镜头画面都是本地画面，只有文字排版，不是生成的插画'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('配音由离线引擎 espeak-ng 合成：声音较机械，不适合直接发布'),
    ).toBeInTheDocument();
  });

  it('tells local cards by the engine on each shot, with an image service configured', async () => {
    const service = 'gpt-image-1（api.openai.com）';
    await start({}, [
      boardShot(0, { imageEngine: service }),
      // Drawn before the service was configured: a card, though a service is there now.
      boardShot(1, { imageEngine: LOCAL_FRAME_LABEL }),
      // The service failed for this one: a local stand-in.
      boardShot(2, { imageEngine: LOCAL_FALLBACK_LABEL, needsRegeneration: true }),
      boardShot(3, { imageUrl: '' }),
    ]);
    render();
    const shot = (n: number) => screen.getByRole('group', { name: `检查镜头 ${n}` });
    await screen.findByRole('group', { name: '检查镜头 4' });
    await waitFor(() =>
      expect(
        within(shot(2)).getByText(
          '画面是本地画面（绘制时未配置图像服务）：只有文字排版，不是生成的插画，现在可以重新生成画面',
        ),
      ).toBeInTheDocument(),
    );
    expect(
      within(shot(3)).getByText('画面是本地替代图：图像服务未成功，建议重画'),
    ).toBeInTheDocument();
    expect(
      within(shot(4)).getByText('没有画面：生成时会自动绘制，建议先在分镜页生成并检查'),
    ).toBeInTheDocument();
    // The service's picture: nothing to say.
    expect(within(shot(1)).queryByRole('alert')).toBeNull();
    expect(screen.getByRole('status', { name: '成片概况' })).toHaveTextContent('有提醒的镜头3');
    // Each picture warning says what fixes it: redraw on the storyboard page.
    for (const n of [2, 3, 4]) {
      expect(within(shot(n)).getByRole('button', { name: '重新生成画面' })).toBeInTheDocument();
    }
    // Every line spoken before leaving (nothing left asking a closed backend).
    await waitFor(() =>
      expect(screen.getByRole('status', { name: '成片概况' })).not.toHaveTextContent('配音中'),
    );
    fireEvent.click(within(shot(2)).getByRole('button', { name: '重新生成画面' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/video/animeStoryboard/sb-1'),
    );
  });

  it('offline: a picture a service drew before is not called local, a local card is', async () => {
    await start(
      { 'GET /api/video/services': () => ok({ text: null, pictures: null, voice: null }) },
      [
        boardShot(0, { imageEngine: 'gpt-image-1（api.openai.com）' }),
        boardShot(1, { imageEngine: LOCAL_FRAME_LABEL }),
      ],
    );
    render();
    const second = await screen.findByRole('group', { name: '检查镜头 2' });
    expect(
      await within(second).findByText(
        '画面是本地画面（未配置图像服务）：只有文字排版，不是生成的插画，配置图像服务后重新生成画面',
      ),
    ).toBeInTheDocument();
    // The action names the service to configure, not a redraw that would draw a card again.
    expect(within(second).getByText('配置图像服务')).toBeInTheDocument();
    expect(within(second).queryByRole('button', { name: '重新生成画面' })).toBeNull();
    expect(
      within(screen.getByRole('group', { name: '检查镜头 1' })).queryByRole('alert'),
    ).toBeNull();
    expect(screen.getByRole('status', { name: '成片概况' })).toHaveTextContent('有提醒的镜头1');
    expect(
      screen.getByText('未配置图像服务：1 个镜头是本地画面，只有文字排版，不是生成的插画'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('status', { name: '成片概况' })).not.toHaveTextContent('配音中'),
    );
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
