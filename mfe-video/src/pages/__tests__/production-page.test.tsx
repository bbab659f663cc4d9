import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ok, refuse, renderWithHost, sseReply, type FakeRoutes } from '@kol/shared-sdk/testing';
import { videoBackendPerTest } from '../../testing/backend';
import { demoResult, demoWork, demoWorkDetail, page } from '../../testing/fixtures';
import { ProductionPage } from '../production-page';

const backend = videoBackendPerTest();

const FAILED = demoResult(32, {
  state: 'failed',
  stage: 'images',
  progress: 35,
  etaSeconds: null,
  stages: [
    { name: 'script', state: 'succeeded', progress: 100, error: null },
    {
      name: 'images',
      state: 'failed',
      progress: 20,
      error: '「画面」阶段失败（第 3 个分镜，服务：ComfyUI）：连接超时',
    },
  ],
  error: '「画面」阶段失败（第 3 个分镜，服务：ComfyUI）：连接超时',
});

async function start(
  results: Record<number, ReturnType<typeof demoResult>>,
  overrides: FakeRoutes = {},
) {
  return backend.start({
    'GET /api/video/get_works': () =>
      ok(page(Object.keys(results).map((id) => demoWork(Number(id), { title: `作品 ${id}` })))),
    'GET /api/video/get_work_result': ({ query }) => {
      const result = results[Number(query.workId)];
      return result ? ok(result) : refuse(404, '没有找到这个作品', 404);
    },
    ...overrides,
  });
}

const task = (title: string) => screen.getByRole('group', { name: `生成任务 ${title}` });

describe('/video/production', () => {
  it('lists the user’s tasks with their state; works never generated are not tasks', async () => {
    await start({
      31: demoResult(31, { state: 'succeeded', progress: 100, etaSeconds: null }),
      32: FAILED,
      33: demoResult(33, { taskId: null, state: 'succeeded', progress: 0 }),
    });
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    expect(await screen.findByText('作品 31')).toBeInTheDocument();
    expect(within(task('作品 31')).getByText('已完成')).toBeInTheDocument();
    expect(within(task('作品 32')).getByText('失败')).toBeInTheDocument();
    expect(screen.queryByText('作品 33')).not.toBeInTheDocument();
    fireEvent.click(within(task('作品 31')).getByLabelText('查看视频 作品 31'));
    expect(screen.getByTestId('location')).toHaveTextContent('/video/short/task-31');
  });

  it('follows a running task live from its progress stream to the end', async () => {
    const server = await start(
      { 31: demoResult(31, { stage: 'images', progress: 40 }) },
      {
        'GET /api/video/progress_stream': () =>
          sseReply(
            [
              { event: 'progress', data: demoResult(31, { stage: 'voice', progress: 62 }) },
              {
                event: 'done',
                data: demoResult(31, { state: 'succeeded', progress: 100, etaSeconds: null }),
              },
            ],
            200,
          ),
      },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    expect(await screen.findByText('正在画面 · 预计还需 约 1分30秒')).toBeInTheDocument();
    expect(await screen.findByText('已完成')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/progress_stream')[0]?.query).toEqual({ workId: '31' });
  });

  it('falls back to polling get_work_result when the stream drops (a server restart)', async () => {
    let polls = 0;
    await start(
      { 31: demoResult(31, { stage: 'images', progress: 40 }) },
      {
        'GET /api/video/progress_stream': () =>
          sseReply([
            {
              event: 'progress',
              data: demoResult(31, { stage: 'voice', progress: 62, etaSeconds: 40 }),
            },
          ]),
        'GET /api/video/get_work_result': () => {
          polls += 1;
          return ok(
            polls === 1
              ? demoResult(31, { stage: 'images', progress: 40 })
              : demoResult(31, { state: 'succeeded', progress: 100, etaSeconds: null }),
          );
        },
      },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    expect(await screen.findByText('正在配音 · 预计还需 约 40 秒')).toBeInTheDocument();
    expect(screen.getByLabelText('生成进度')).toHaveAttribute('aria-valuenow', '62');
    expect(await screen.findByText('已完成', undefined, { timeout: 8000 })).toBeInTheDocument();
    expect(polls).toBe(2);
  });

  it('names the failed stage in Chinese and retries it after confirming the count', async () => {
    let retried = false;
    const server = await start(
      { 32: FAILED },
      {
        'GET /api/video/regenerate_video': () => {
          retried = true;
          return ok({ taskId: 'task-32b' });
        },
        'GET /api/video/get_work_result': () =>
          ok(
            retried
              ? demoResult(32, { taskId: 'task-32b', state: 'succeeded', progress: 100 })
              : FAILED,
          ),
      },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    expect(
      await screen.findByText('「画面」阶段失败（第 3 个分镜，服务：ComfyUI）：连接超时'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByLabelText('重新生成 作品 32'));
    expect(
      await screen.findByText(
        '将消耗 1 次「漫剪视频」生成次数，从头重新生成这个视频。生成失败会自动退回次数。',
      ),
    ).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/regenerate_video')).toHaveLength(0);
    fireEvent.click(screen.getByText('确认重新生成'));
    expect(await screen.findByText('已完成')).toBeInTheDocument();
    expect(server.calls('GET', '/api/video/regenerate_video')[0]?.query).toEqual({ workId: '32' });
  });

  it('shows a refused retry (no count left) and keeps the dialog', async () => {
    await start(
      { 32: FAILED },
      { 'GET /api/video/regenerate_video': () => refuse(402, '漫剪视频的生成次数已用完', 402) },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    fireEvent.click(await screen.findByLabelText('重新生成 作品 32'));
    fireEvent.click(await screen.findByText('确认重新生成'));
    expect(await screen.findByText('漫剪视频的生成次数已用完')).toBeInTheDocument();
    expect(screen.getByText('确认重新生成')).toBeInTheDocument();
  });

  it('cancels a running task after saying the count is not given back', async () => {
    let cancelled = false;
    const server = await start(
      { 31: demoResult(31) },
      {
        'GET /api/video/progress_stream': () => sseReply([], 5000),
        'POST /api/video/cancel_task': () => {
          cancelled = true;
          return ok(null);
        },
        'GET /api/video/get_work_result': () =>
          ok(cancelled ? demoResult(31, { state: 'cancelled' }) : demoResult(31)),
      },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    fireEvent.click(await screen.findByLabelText('取消生成 作品 31'));
    expect(
      await screen.findByText('取消后这次生成会停止，已扣除的次数不会退回。'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getAllByText(/^取消生成$/).at(-1) as HTMLElement);
    expect(await screen.findByText('已取消')).toBeInTheDocument();
    expect(server.calls('POST', '/api/video/cancel_task')[0]?.body).toEqual({ taskId: 'task-31' });
  });

  it('lists the task just started even when it is not among the newest works', async () => {
    await start(
      {},
      {
        'GET /api/video/work_info': () => ok(demoWorkDetail(77, { title: '刚开始的视频' })),
        'GET /api/video/get_work_result': () =>
          ok(demoResult(77, { state: 'succeeded', progress: 100 })),
      },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production?workId=77' });
    expect(await screen.findByText('刚开始的视频')).toBeInTheDocument();
  });

  it('says in Chinese when the tasks cannot load', async () => {
    await start({}, { 'GET /api/video/get_works': () => refuse(500, '服务繁忙，请稍后再试') });
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    expect(await screen.findByText('生成任务加载失败：服务繁忙，请稍后再试')).toBeInTheDocument();
  });

  it('offers the way to make one when there is none, and lays out for a phone', async () => {
    await start({});
    const { container } = renderWithHost(<ProductionPage />, { route: '/m/video/production' });
    expect(await screen.findByText('还没有生成任务')).toBeInTheDocument();
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByText('去制作视频')).toBeInTheDocument());
  });

  it('says in Chinese when a cancel is refused, keeping the dialog', async () => {
    await start(
      { 31: demoResult(31) },
      {
        'GET /api/video/progress_stream': () => sseReply([], 5000),
        'POST /api/video/cancel_task': () => refuse(409, '任务已经结束，无法取消', 409),
      },
    );
    renderWithHost(<ProductionPage />, { route: '/video/production' });
    fireEvent.click(await screen.findByLabelText('取消生成 作品 31'));
    fireEvent.click((await screen.findAllByText(/^取消生成$/)).at(-1) as HTMLElement);
    expect(await screen.findByText('任务已经结束，无法取消')).toBeInTheDocument();
    expect(screen.getByText('取消后这次生成会停止，已扣除的次数不会退回。')).toBeInTheDocument();
  });
});
