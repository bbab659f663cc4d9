import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { Shot } from '@kol/shared-sdk';
import { fakeBackendPerTest, ok, renderWithHost } from '@kol/shared-sdk/testing';
import {
  ANIME_SCRIPT,
  ANIME_SHOTS,
  animeBackend,
  animeUser,
  storyboardResult,
} from '../../../testing/anime';
import { changeWork, type WorkState } from '../../../testing/backend';
import { AnimeStoryboardStep } from '../steps/storyboard-step';

const backend = fakeBackendPerTest();

const PATH = '/video/animeStoryboard/:taskId';
const render = () =>
  renderWithHost(<AnimeStoryboardStep />, {
    route: '/video/animeStoryboard/sb-1',
    path: PATH,
    user: animeUser(),
  });

async function done(overrides = {}) {
  const state = animeBackend(
    { text: ANIME_SCRIPT, shots: ANIME_SHOTS },
    {
      'GET /api/video/get_work_result': () => ok(storyboardResult(31)),
      ...overrides,
    },
  );
  const server = await backend.start(state.routes);
  return { server, state: state.state };
}

const field = (n: number, name: string) => screen.getByLabelText(`第 ${n} 个镜头的${name}`);

describe('/video/animeStoryboard/:taskId', () => {
  it('shows progress while the pictures are drawn, the shots read-only', async () => {
    const { routes } = animeBackend(
      { shots: ANIME_SHOTS.map((shot) => ({ ...shot, imageUrl: '' })) },
      {
        'GET /api/video/get_work_result': () =>
          ok(
            storyboardResult(31, {
              state: 'running',
              stage: 'images',
              progress: 60,
              stages: [
                { name: 'shots', state: 'succeeded', progress: 100, error: null },
                { name: 'images', state: 'running', progress: 40, error: null },
              ],
            }),
          ),
      },
    );
    await backend.start(routes);
    render();
    expect(await screen.findByText('正在绘制画面（3 个镜头）…完成后可以编辑')).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '40');
    expect(field(1, '台词')).toBeDisabled();
    expect(screen.getByRole('button', { name: '下一步：成片检查' })).toBeDisabled();
  });

  it('shows each shot’s camera, scene, speaker, line and picture; an edit is saved with the script', async () => {
    const { state } = await done();
    const first = render();
    expect(await screen.findByText('3 个镜头，3 个已有画面')).toBeInTheDocument();
    expect(field(2, '角色')).toHaveValue('林舟');
    expect(field(2, '台词')).toHaveValue('掌柜，还有房吗？');
    expect(field(1, '场景')).toHaveValue('客栈');
    expect(screen.getByAltText('第 3 个镜头的画面')).toBeInTheDocument();

    fireEvent.change(field(1, '场景'), { target: { value: '雨夜客栈' } });
    fireEvent.change(field(3, '台词'), { target: { value: '只剩一间上房。' } });
    await waitFor(() => expect(state.work.shots[2]?.line).toBe('只剩一间上房。'));
    const saved = state.work.shots as Shot[];
    expect(saved[0]).toMatchObject({
      scene: '雨夜客栈',
      // The storyboard's own prompt follows the fields it was written from.
      imagePrompt: '雨夜客栈，远景：夜里，林舟走进客栈。',
    });
    expect(saved[2]).toMatchObject({
      caption: '掌柜：只剩一间上房。',
      imagePrompt: '客栈，特写，掌柜：只剩一间上房。',
    });
    expect(state.work.text).toBe(
      '旁白：夜里，林舟走进客栈。\n林舟：掌柜，还有房吗？\n掌柜：只剩一间上房。',
    );

    first.unmount();
    render();
    expect(await screen.findByText('3 个镜头，3 个已有画面')).toBeInTheDocument();
    expect(field(1, '场景')).toHaveValue('雨夜客栈');
  });

  it('merges two shots of one speaker, refuses two speakers, and splits a line at the cursor', async () => {
    const { state } = await done();
    render();
    await screen.findByText('3 个镜头，3 个已有画面');
    fireEvent.click(screen.getByRole('button', { name: '第 1 个镜头与下一个镜头合并' }));
    expect(
      await screen.findByText(
        '第 1 和第 2 个镜头的角色不同（旁白、林舟），只能合并同一角色的相邻台词',
      ),
    ).toBeInTheDocument();

    const line = field(2, '台词') as HTMLTextAreaElement;
    line.setSelectionRange(3, 3);
    fireEvent.select(line);
    fireEvent.click(screen.getByRole('button', { name: '在光标处拆分第 2 个镜头' }));
    await waitFor(() => expect(state.work.shots).toHaveLength(4));
    expect(state.work.shots.map((shot) => [shot.speaker, shot.line, shot.imageUrl !== ''])).toEqual(
      [
        ['旁白', '夜里，林舟走进客栈。', true],
        ['林舟', '掌柜，', true],
        ['林舟', '还有房吗？', false],
        ['掌柜', '只剩一间。', true],
      ],
    );

    fireEvent.click(screen.getByRole('button', { name: '第 2 个镜头与下一个镜头合并' }));
    await waitFor(() => expect(state.work.shots).toHaveLength(3));
    expect(state.work.shots[1]).toMatchObject({ line: '掌柜，还有房吗？', index: 1 });
    expect(state.work.text.split('\n')).toHaveLength(3);
  });

  it('redraws one shot’s picture (gen_img with its index and prompt) and shows it when drawn', async () => {
    const { server } = await done({
      'POST /api/video/gen_img': () => ok({ taskId: 'img-1' }),
      'GET /api/video/img_result': () =>
        ok({
          taskId: 'img-1',
          state: 'succeeded',
          imageUrl: '/media/7/tasks/img-1/image.jpg',
          engine: '本地画面',
          error: null,
        }),
    });
    render();
    await screen.findByText('3 个镜头，3 个已有画面');
    fireEvent.click(screen.getByRole('button', { name: '重画第 2 个镜头' }));
    await waitFor(() =>
      expect(screen.getByAltText('第 2 个镜头的画面')).toHaveAttribute(
        'src',
        expect.stringContaining('/media/7/tasks/img-1/image.jpg'),
      ),
    );
    expect(server.calls('POST', '/api/video/gen_img')[0]?.body).toEqual({
      workId: 31,
      shotIndex: 1,
      prompt: '客栈，近景，林舟：掌柜，还有房吗？',
    });
  });

  it('saves an edit made while a picture was drawn merged with it, on the newest revision', async () => {
    const holder: { state?: WorkState } = {};
    const drawn = '/media/7/tasks/img-1/image.jpg';
    let written = false;
    const { server, state } = await done({
      'POST /api/video/gen_img': () => ok({ taskId: 'img-1' }),
      'GET /api/video/img_result': () => {
        // The server writes the picture onto its shot as the task ends (the revision moves on).
        if (!written && holder.state) {
          written = true;
          changeWork(holder.state, (work) => ({
            shots: work.shots.map((shot) =>
              shot.index === 1 ? { ...shot, imageUrl: drawn, imageEngine: 'x' } : shot,
            ),
          }));
        }
        return ok({
          taskId: 'img-1',
          state: 'succeeded',
          imageUrl: drawn,
          engine: 'x',
          error: null,
        });
      },
    });
    holder.state = state;
    render();
    await screen.findByText('3 个镜头，3 个已有画面');
    fireEvent.click(screen.getByRole('button', { name: '重画第 2 个镜头' }));
    await waitFor(() => expect(server.calls('POST', '/api/video/gen_img')).toHaveLength(1));
    fireEvent.change(field(3, '台词'), { target: { value: '只剩一间上房。' } });
    await waitFor(() => expect(state.work.shots[1]?.imageUrl).toBe(drawn));
    await waitFor(() => expect(state.work.shots[2]?.line).toBe('只剩一间上房。'));
    // The page's save after the picture landed went out on an older revision and was merged.
    await waitFor(() =>
      expect(
        server
          .calls('POST', '/api/video/update_text')
          .some((call) => (call.body as { shots: Shot[] }).shots[1]?.imageUrl === drawn),
      ).toBe(true),
    );
    expect(state.work.shots[1]?.imageUrl).toBe(drawn);
    expect(state.work.shots[2]?.line).toBe('只剩一间上房。');
    expect(screen.queryByText('内容已在其他页面修改')).not.toBeInTheDocument();
    // A later save, on the newest revision, still says who drew the picture (the final check
    // reads it to tell a local card from a generated picture).
    fireEvent.change(field(1, '台词'), { target: { value: '夜深了，林舟走进客栈。' } });
    await waitFor(() => expect(state.work.shots[0]?.line).toBe('夜深了，林舟走进客栈。'));
    expect(state.work.shots[1]).toMatchObject({ imageUrl: drawn, imageEngine: 'x' });
  });

  it('keeps the clips through a save, and makes a failed one again from its shot', async () => {
    const shots = ANIME_SHOTS.map((shot, i) =>
      i === 0
        ? { ...shot, clipUrl: '/media/7/t/clips/shot-000.mp4', clipEngine: 'sora-2' }
        : i === 1
          ? { ...shot, clipEngine: 'sora-2', clipError: '视频服务 sora-2 没有生成出视频' }
          : shot,
    );
    const { routes, state } = animeBackend(
      { text: ANIME_SCRIPT, shots },
      {
        'GET /api/video/get_work_result': () => ok(storyboardResult(31)),
        'POST /api/video/gen_clip': () => ok({ taskId: 'clip-7' }),
        'GET /api/video/clip_result': () =>
          ok({ taskId: 'clip-7', state: 'running', clipUrl: '', engine: '', error: null }),
      },
    );
    const server = await backend.start(routes);
    render();
    expect(await screen.findByText('3 个镜头，3 个已有画面')).toBeInTheDocument();
    expect(screen.getByText('动态镜头')).toBeInTheDocument();
    expect(screen.getByText('动态镜头失败，成片用静态画面')).toBeInTheDocument();

    fireEvent.change(field(1, '场景'), { target: { value: '雨夜客栈' } });
    await waitFor(() => expect(state.work.shots[0]?.scene).toBe('雨夜客栈'));
    expect(state.work.shots[0]?.clipUrl).toBe('/media/7/t/clips/shot-000.mp4');
    expect(state.work.shots[1]?.clipError).toBe('视频服务 sora-2 没有生成出视频');

    fireEvent.click(screen.getByRole('button', { name: '重新生成动态镜头' }));
    await waitFor(() =>
      expect(server.calls('POST', '/api/video/gen_clip').map((call) => call.body)).toEqual([
        { workId: 31, shotIndex: 1 },
      ]),
    );
    expect(await screen.findByText('动态镜头生成中，需要几分钟')).toBeInTheDocument();
  });

  it('goes on to the final check of the same task', async () => {
    await done();
    render();
    await screen.findByText('3 个镜头，3 个已有画面');
    fireEvent.click(screen.getByRole('button', { name: '下一步：成片检查' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/video/animeAtcs/sb-1'),
    );
  });
});
