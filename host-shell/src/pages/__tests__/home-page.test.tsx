import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import type { WorkSummary } from '@kol/shared-sdk';
import { fakeBackendPerTest, ok, renderWithHost, workSummary } from '@kol/shared-sdk/testing';
import { demoUser } from '../../testing/fake-backend';
import { HomePage, newestWorkPath } from '../home-page';

const backend = fakeBackendPerTest();

const work = (workId: number, overrides: Partial<WorkSummary> = {}): WorkSummary =>
  workSummary(workId, { excerpt: '', updateTime: '2025-11-20 10:00:00', ...overrides });

const made = work(1, {
  title: '做好的视频',
  taskId: 'task-1',
  progress: 100,
  coverUrl: '/media/works/1/cover.jpg',
  videoUrl: '/media/works/1/video.mp4',
});
const making = work(2, {
  title: '正在做的视频',
  type: 5,
  taskId: 'task-2',
  state: 'running',
  stage: 'images',
  progress: 40,
  // A regeneration: the earlier video is still there, the newest task is not done.
  videoUrl: '/media/works/2/video.mp4',
});
const failed = work(3, {
  title: '失败的解压视频',
  type: 6,
  taskId: 'task-3',
  state: 'failed',
});
const text = work(4, { title: '一篇文案' });
const opera = work(5, { title: '真人短剧', type: 8 });

async function renderHome(works: WorkSummary[]) {
  const server = await backend.start({
    'GET /api/video/get_user_newest_works': () => ok(works),
    'GET /api/notice/list': () => ok({ items: [], total: 0 }),
  });
  renderWithHost(<HomePage />, { user: demoUser(), route: '/' });
  return server;
}

describe('home page: 最新作品', () => {
  it('links each newest work where it can be seen, with its cover or a placeholder', async () => {
    const server = await renderHome([made, making, failed, text, opera]);
    const link = await screen.findByTestId('newest-work-1');
    expect(server.calls('GET', '/api/video/get_user_newest_works')[0]?.query).toEqual({
      limit: '5',
    });
    expect(link).toHaveAttribute('href', '/video/short/task-1');
    expect(within(link).getByRole('img', { name: '做好的视频 封面' })).toHaveAttribute(
      'src',
      `${server.origin}/media/works/1/cover.jpg`,
    );
    expect(within(link).getByText(/漫剪视频 · 已完成/)).toBeInTheDocument();

    const running = screen.getByTestId('newest-work-2');
    expect(running).toHaveAttribute('href', '/video/production?workId=2');
    expect(within(running).getByText(/海外漫剪视频 · 生成中 40%/)).toBeInTheDocument();
    expect(within(running).getByRole('img', { name: '正在做的视频 暂无封面' })).toBeInTheDocument();

    // Nothing to show yet: the works list of its type (overseas shares its type's list).
    expect(screen.getByTestId('newest-work-3')).toHaveAttribute('href', '/work/decompression');
    expect(screen.getByTestId('newest-work-4')).toHaveAttribute('href', '/work/comics');
    // A type without a works list of its own.
    expect(screen.getByTestId('newest-work-5')).toHaveAttribute('href', '/work');

    fireEvent.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent(/^\/video\/short\/task-1$/);
  });

  it('says how to start when there are no works yet', async () => {
    await renderHome([]);
    expect(await screen.findByText('还没有作品，从上面的入口开始创作吧')).toBeInTheDocument();
  });

  it('finds the works list of every listed type from the work menu', () => {
    const cases: [number, string][] = [
      [0, '/work/comics'],
      [5, '/work/comics'],
      [11, '/work/anime'],
      [1, '/work/decompression'],
      [6, '/work/decompression'],
      [2, '/work/scroll'],
      [3, '/work/convert'],
      [4, '/work/market'],
      [8, '/work'],
      [99, '/work'],
    ];
    for (const [type, path] of cases) {
      expect(newestWorkPath(work(1, { type }))).toBe(path);
    }
  });
});
