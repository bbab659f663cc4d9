import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ImageResult, WorkDetail } from '@kol/shared-sdk';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import {
  ok,
  refuse,
  renderWithHost,
  type FakeBackend,
  type FakeRoutes,
} from '@kol/shared-sdk/testing';
import {
  changeWork,
  videoBackendPerTest,
  workRoutes,
  type WorkState,
} from '../../../testing/backend';
import { demoLimits, demoRole, demoShot, demoWorkDetail } from '../../../testing/fixtures';
import { PromptWordStep } from '../steps/prompt-word-step';

const backend = videoBackendPerTest();

const PATH = '/video/promptWord/:id';
const ROUTE = '/video/promptWord/21?videoType=0&workId=21';

function work(overrides: Partial<WorkDetail> = {}): WorkDetail {
  return demoWorkDetail(21, {
    text: '林动走进山门。\n苏柔撑伞等他。',
    settings: { aspect: '9:16', imageStyleId: 2 },
    shots: [
      demoShot(0, {
        caption: '林动走进山门。',
        imagePrompt: '林动走进山门。',
        imageUrl: '/media/7/a/image.jpg',
      }),
      demoShot(1, {
        caption: '苏柔撑伞等他。',
        imagePrompt: '苏柔撑伞等他。',
        imageUrl: '/media/7/v/frames/shot-001.jpg',
        needsRegeneration: true,
      }),
    ],
    ...overrides,
  });
}

async function start(overrides: FakeRoutes = {}) {
  return backend.start({
    'GET /api/video/work_info': () => ok(work()),
    'GET /api/role/get_roles': () =>
      ok([
        demoRole(1, { name: '林动' }),
        demoRole(2, { name: '苏柔' }),
        demoRole(3, { name: '林' }),
      ]),
    'POST /api/video/update_text': ({ body }) =>
      ok({ ...work(), ...(body as Partial<WorkDetail>) }),
    ...overrides,
  });
}

const shot = (n: number) => screen.getByRole('group', { name: `分镜 ${n}` });

/**
 * gen_img and img_result of a held work as the server answers them: a task draws the shot it was
 * asked for, and its picture is written onto that shot (the revision moving on) as it ends.
 */
function drawingRoutes(state: WorkState, result: Partial<ImageResult> = {}): FakeRoutes {
  const tasks = new Map<string, { shotIndex: number; done: boolean }>();
  return {
    ...workRoutes(state),
    'POST /api/video/gen_img': ({ body }) => {
      const taskId = `img-${tasks.size + 7}`;
      tasks.set(taskId, { shotIndex: (body as { shotIndex: number }).shotIndex, done: false });
      return ok({ taskId });
    },
    'GET /api/video/img_result': ({ query }) => {
      const task = tasks.get(query.taskId ?? '');
      const answer: ImageResult = {
        taskId: query.taskId ?? '',
        state: 'succeeded',
        imageUrl: `/media/7/${query.taskId}/image.jpg`,
        engine: 'fake-image',
        error: null,
        ...result,
      };
      if (task && !task.done) {
        task.done = true;
        changeWork(state, (current) => ({
          shots: current.shots.map((item) =>
            item.index === task.shotIndex
              ? { ...item, imageUrl: answer.imageUrl, needsRegeneration: answer.error !== null }
              : item,
          ),
        }));
      }
      return ok(answer);
    },
  };
}

describe('/video/promptWord/:id', () => {
  it('shows every shot with its caption, prompt, roles and picture, the local ones marked', async () => {
    await start();
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    expect(await screen.findByLabelText('第 1 个分镜的画面描述')).toHaveValue('林动走进山门。');
    expect(screen.getByAltText('分镜 1 的画面')).toBeInTheDocument();
    // 林 inside 林动 is not a role of its own there.
    await waitFor(() => expect(within(shot(1)).getByText('林动')).toBeInTheDocument());
    expect(within(shot(1)).queryByText('林')).not.toBeInTheDocument();
    expect(within(shot(2)).getByText('本地画面')).toBeInTheDocument();
    expect(
      within(shot(2)).getByText('这张是本地画面（图像服务出错或未配置），可以重新生成'),
    ).toBeInTheDocument();
    expect(screen.getByText('生成全部画面（1 张待生成）')).toBeInTheDocument();
  });

  it('saves an edited prompt onto the work, keeping pictures drawn meanwhile', async () => {
    const server = await start();
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    const prompt = await screen.findByLabelText('第 1 个分镜的画面描述');
    fireEvent.change(prompt, { target: { value: '雨夜，少年走进破旧的山门' } });
    fireEvent.blur(prompt);
    await waitFor(() => expect(server.calls('POST', '/api/video/update_text')).toHaveLength(1));
    const body = server.calls('POST', '/api/video/update_text')[0]?.body as WorkDetail;
    expect(body.revision).toBe(1);
    expect(body.shots.map((s) => s.imagePrompt)).toEqual([
      '雨夜，少年走进破旧的山门',
      '苏柔撑伞等他。',
    ]);
    expect(body.shots[0]?.imageUrl).toBe('/media/7/a/image.jpg');
  });

  it('redraws one shot with gen_img and shows the picture when it arrives', async () => {
    const server = await start(drawingRoutes({ work: work() }));
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByLabelText('重新生成第 2 个分镜的画面'));
    await waitFor(() =>
      expect(screen.getByAltText('分镜 2 的画面')).toHaveAttribute(
        'src',
        expect.stringContaining('/media/7/img-7/image.jpg'),
      ),
    );
    expect(within(shot(2)).queryByText('本地画面')).not.toBeInTheDocument();
    expect(server.calls('POST', '/api/video/gen_img')[0]?.body).toEqual({
      workId: 21,
      shotIndex: 1,
      prompt: '苏柔撑伞等他。',
      imageStyleId: 2,
    });
  });

  it('generates all: only the shots without a picture or with the local one, kept after a reload', async () => {
    const state: WorkState = {
      work: work({
        shots: [
          demoShot(0, { caption: '林动走进山门。', imageUrl: '/media/7/a/image.jpg' }),
          demoShot(1, { caption: '苏柔撑伞等他。' }),
          demoShot(2, { caption: '钟声响起。' }),
        ],
        text: '林动走进山门。\n苏柔撑伞等他。\n钟声响起。',
      }),
    };
    const server = await start(drawingRoutes(state));
    const first = renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByText('生成全部画面（2 张待生成）'));
    await waitFor(() => expect(server.calls('POST', '/api/video/gen_img')).toHaveLength(2));
    expect(
      server
        .calls('POST', '/api/video/gen_img')
        .map((call) => (call.body as { shotIndex: number }).shotIndex),
    ).toEqual([1, 2]);
    expect(await screen.findByAltText('分镜 3 的画面')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByAltText('分镜 2 的画面')).toBeInTheDocument());
    expect(state.work.shots.map((item) => item.imageUrl)).toEqual([
      '/media/7/a/image.jpg',
      '/media/7/img-7/image.jpg',
      '/media/7/img-8/image.jpg',
    ]);
    // A reload shows every picture drawn: each was written onto its own shot.
    first.unmount();
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    expect(await screen.findByAltText('分镜 3 的画面')).toHaveAttribute(
      'src',
      expect.stringContaining('/media/7/img-8/image.jpg'),
    );
    expect(screen.getByAltText('分镜 2 的画面')).toHaveAttribute(
      'src',
      expect.stringContaining('/media/7/img-7/image.jpg'),
    );
    expect(screen.getByText('生成全部画面')).toBeInTheDocument();
  });

  it('marks a picture the local frame stood in for, with the provider’s message', async () => {
    await start(
      drawingRoutes(
        { work: work() },
        {
          engine: '本地画面（图像服务出错，可重新生成）',
          error: 'fake-image（127.0.0.1）服务出错（500）：GPU exploded',
        },
      ),
    );
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByLabelText('重新生成第 1 个分镜的画面'));
    expect(
      await screen.findByText(
        '图像服务出错，已用本地画面代替：fake-image（127.0.0.1）服务出错（500）：GPU exploded',
      ),
    ).toBeInTheDocument();
    expect(within(shot(1)).getByText('本地画面')).toBeInTheDocument();
  });

  it('says why a picture did not start', async () => {
    await start({ 'POST /api/video/gen_img': () => refuse(400, '第 2 个分镜不存在', 400) });
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByLabelText('重新生成第 2 个分镜的画面'));
    expect(await screen.findByText('第 2 个分镜绘制失败：第 2 个分镜不存在')).toBeInTheDocument();
  });

  it('asks before spending a count, then generates the video and shows its progress', async () => {
    const server = await start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainGenCount: 3 })),
      'POST /api/video/gen_video': () => ok({ taskId: 'video-1' }),
    });
    const { store } = renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByText('生成视频（剩余 3 次）'));
    expect(
      await screen.findByText(
        '将消耗 1 次「漫剪视频」生成次数（当前剩余 3 次）。生成失败会自动退回次数；中途取消不退回。',
      ),
    ).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/gen_video')).toHaveLength(0);
    fireEvent.click(screen.getByText('确认生成'));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/video/production?workId=21'),
    );
    expect(server.calls('POST', '/api/video/gen_video')[0]?.body).toEqual({ workId: 21 });
    await waitFor(() =>
      expect(server.calls('GET', '/api/user/get_user_limit_info').length).toBeGreaterThan(1),
    );
    expect(store.get(usageLimitsAtom)).not.toBeNull();
  });

  it('shows the refusal of gen_video (a flagged word) and stays', async () => {
    await start({
      'POST /api/video/gen_video': () =>
        refuse(400, '文案中有平台可能限流的词：「最好」（可改为「很好」），请修改后再生成', 400),
    });
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByText(/^生成视频（剩余/));
    fireEvent.click(await screen.findByText('确认生成'));
    expect(
      await screen.findByText(
        '文案中有平台可能限流的词：「最好」（可改为「很好」），请修改后再生成',
      ),
    ).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent(ROUTE);
  });

  it('cannot generate with no count left', async () => {
    await start({ 'GET /api/user/get_user_limit_info': () => ok(demoLimits()) });
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    await waitFor(() =>
      expect(screen.getByText('生成视频（剩余 0 次）').closest('button')).toBeDisabled(),
    );
  });

  it('says in Chinese when the work cannot load', async () => {
    await start({ 'GET /api/video/work_info': () => refuse(404, '没有找到这个作品', 404) });
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    expect(await screen.findByText('分镜加载失败：没有找到这个作品')).toBeInTheDocument();
  });

  it('says in Chinese when following a picture fails (img_result)', async () => {
    await start({
      'POST /api/video/gen_img': () => ok({ taskId: 'img-9' }),
      'GET /api/video/img_result': () => refuse(404, '「图片任务」不存在或不属于你', 404),
    });
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    fireEvent.click(await screen.findByLabelText('重新生成第 1 个分镜的画面'));
    expect(
      await screen.findByText('第 1 个分镜绘制失败：「图片任务」不存在或不属于你'),
    ).toBeInTheDocument();
  });

  it('says in Chinese when an edited prompt cannot be saved (update_text), keeping it', async () => {
    await start({
      'POST /api/video/update_text': () => refuse(400, '「画面描述」不能超过 2000 个字符', 400),
    });
    renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
    const prompt = await screen.findByLabelText('第 1 个分镜的画面描述');
    fireEvent.change(prompt, { target: { value: '新的描述' } });
    fireEvent.blur(prompt);
    expect(
      await screen.findByText('画面描述保存失败：「画面描述」不能超过 2000 个字符'),
    ).toBeInTheDocument();
    expect(prompt).toHaveValue('新的描述');
  });

  describe('saves based on the revision the page loaded', () => {
    const TYPED = '雨夜，少年走进破旧的山门';
    const DRAWN = '/media/7/img-5/image.jpg';

    /** The work held as the server keeps it (revision 3), saves refused when stale. */
    async function startHeld(overrides: FakeRoutes = {}) {
      const state: WorkState = { work: work({ revision: 3 }) };
      const server = await start({ ...workRoutes(state), ...overrides });
      return { state, server };
    }

    const saves = (server: FakeBackend) =>
      server.calls('POST', '/api/video/update_text').map((call) => call.body as WorkDetail);

    /** The server draws shot 2's picture (asked for in another tab): the revision moves on. */
    const pictureLands = (state: WorkState) =>
      changeWork(state, (current) => ({
        shots: current.shots.map((shot) =>
          shot.index === 1 ? { ...shot, imageUrl: DRAWN, needsRegeneration: false } : shot,
        ),
      }));

    it('saves a prompt edited while a picture landed merged: the fresh revision, the picture and the prompt', async () => {
      const { state, server } = await startHeld();
      renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
      const prompt = await screen.findByLabelText('第 1 个分镜的画面描述');
      fireEvent.change(prompt, { target: { value: TYPED } });
      pictureLands(state);
      fireEvent.blur(prompt);
      await waitFor(() => expect(saves(server)).toHaveLength(2));
      const [stale, merged] = saves(server);
      // Based on what the page loaded, not on a work read just before saving.
      expect(stale?.revision).toBe(3);
      expect(merged?.revision).toBe(4);
      expect(merged?.shots.map((shot) => shot.imagePrompt)).toEqual([TYPED, '苏柔撑伞等他。']);
      expect(merged?.shots.map((shot) => shot.imageUrl)).toEqual(['/media/7/a/image.jpg', DRAWN]);
      expect(state.work.shots[1]?.imageUrl).toBe(DRAWN);
      expect(screen.queryByText('内容已在其他页面修改')).not.toBeInTheDocument();
      await waitFor(() =>
        expect(screen.getByAltText('分镜 2 的画面')).toHaveAttribute(
          'src',
          expect.stringContaining(DRAWN),
        ),
      );
    });

    it('asks when the same prompt was changed elsewhere, keeping the typed prompt, and keeps it on request', async () => {
      const { state, server } = await startHeld();
      renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
      const prompt = await screen.findByLabelText('第 1 个分镜的画面描述');
      fireEvent.change(prompt, { target: { value: TYPED } });
      changeWork(state, (current) => ({
        shots: current.shots.map((shot) =>
          shot.index === 0 ? { ...shot, imagePrompt: '另一个页面写的描述' } : shot,
        ),
      }));
      fireEvent.blur(prompt);
      expect((await screen.findAllByText('内容已在其他页面修改')).length).toBeGreaterThan(0);
      expect(screen.getByText('载入最新内容')).toBeInTheDocument();
      expect(prompt).toHaveValue(TYPED);
      expect(saves(server)).toHaveLength(1);
      fireEvent.click(screen.getByText('保留我的修改'));
      await waitFor(() => expect(saves(server)).toHaveLength(2));
      expect(saves(server)[1]?.revision).toBe(4);
      expect(state.work.shots[0]?.imagePrompt).toBe(TYPED);
      expect(prompt).toHaveValue(TYPED);
    });

    it('shows the newest prompt when the person chooses 载入最新内容', async () => {
      const { state, server } = await startHeld();
      renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
      const prompt = await screen.findByLabelText('第 1 个分镜的画面描述');
      fireEvent.change(prompt, { target: { value: TYPED } });
      changeWork(state, (current) => ({
        shots: current.shots.map((shot) =>
          shot.index === 0 ? { ...shot, imagePrompt: '另一个页面写的描述' } : shot,
        ),
      }));
      fireEvent.blur(prompt);
      fireEvent.click(await screen.findByText('载入最新内容'));
      await waitFor(() =>
        expect(screen.getByLabelText('第 1 个分镜的画面描述')).toHaveValue('另一个页面写的描述'),
      );
      expect(saves(server)).toHaveLength(1);
      expect(state.work.shots[0]?.imagePrompt).toBe('另一个页面写的描述');
    });

    it('reads the work again when a picture arrives, so the next save is based on its revision', async () => {
      let drawn = false;
      const { state, server } = await startHeld({
        'POST /api/video/gen_img': () => ok({ taskId: 'img-5' }),
        'GET /api/video/img_result': () => {
          // The server writes the picture onto its shot as the task ends.
          if (!drawn) pictureLands(holder.state);
          drawn = true;
          return ok({
            taskId: 'img-5',
            state: 'succeeded',
            imageUrl: DRAWN,
            engine: 'fake-image',
            error: null,
          });
        },
      });
      const holder = { state };
      renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
      fireEvent.click(await screen.findByLabelText('重新生成第 2 个分镜的画面'));
      await waitFor(() =>
        expect(screen.getByAltText('分镜 2 的画面')).toHaveAttribute(
          'src',
          expect.stringContaining(DRAWN),
        ),
      );
      await waitFor(() => expect(server.calls('GET', '/api/video/work_info')).toHaveLength(2));
      const prompt = screen.getByLabelText('第 1 个分镜的画面描述');
      fireEvent.change(prompt, { target: { value: TYPED } });
      fireEvent.blur(prompt);
      await waitFor(() => expect(state.work.shots[0]?.imagePrompt).toBe(TYPED));
      expect(saves(server).map((body) => body.revision)).toEqual([4]);
      expect(state.work.shots[1]?.imageUrl).toBe(DRAWN);
    });
    it('takes a prompt changed elsewhere that was not touched here when a picture arrives, never saving the old one over it', async () => {
      let drawn = false;
      const holder: { state?: WorkState } = {};
      const { state, server } = await startHeld({
        'POST /api/video/gen_img': () => ok({ taskId: 'img-5' }),
        'GET /api/video/img_result': () => {
          if (!drawn && holder.state) {
            drawn = true;
            // Another tab rewrote shot 1's prompt, then the server wrote shot 2's picture.
            changeWork(holder.state, (current) => ({
              shots: current.shots.map((shot) =>
                shot.index === 0 ? { ...shot, imagePrompt: '另一个页面写的描述' } : shot,
              ),
            }));
            pictureLands(holder.state);
          }
          return ok({
            taskId: 'img-5',
            state: 'succeeded',
            imageUrl: DRAWN,
            engine: 'fake-image',
            error: null,
          });
        },
      });
      holder.state = state;
      renderWithHost(<PromptWordStep />, { route: ROUTE, path: PATH });
      fireEvent.click(await screen.findByLabelText('重新生成第 2 个分镜的画面'));
      await waitFor(() =>
        expect(screen.getByLabelText('第 1 个分镜的画面描述')).toHaveValue('另一个页面写的描述'),
      );
      const prompt = screen.getByLabelText('第 2 个分镜的画面描述');
      fireEvent.change(prompt, { target: { value: '雨中撑伞的少女' } });
      fireEvent.blur(prompt);
      await waitFor(() => expect(state.work.shots[1]?.imagePrompt).toBe('雨中撑伞的少女'));
      expect(state.work.shots[0]?.imagePrompt).toBe('另一个页面写的描述');
      expect(saves(server).map((body) => body.revision)).toEqual([5]);
    });
  });
});
