import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, within } from '@testing-library/react';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { demoUser, ok, refuse, renderWithHost } from '@kol/shared-sdk/testing';
import { demoLimits, demoResult, demoWork, page } from '../../testing/fixtures';
import { videoBackendPerTest } from '../../testing/backend';
import { VideoHubPage } from '../video-hub-page';

const backend = videoBackendPerTest();

const limits = demoLimits({
  remainGenCount: 2,
  remainRewardsGenerateCount: 1,
  remainMergeCount: 4,
  remainOverseaGenCount: 0,
  remainRewardsOverseaGenerateCount: 0,
  remainCutCount: 5,
  remainCutMergeCount: 6,
});

const card = (name: string) => screen.getByRole('group', { name });

describe('/video hub', () => {
  it('shows a card per type the template ids allow, with generate + reward and merge left', async () => {
    await backend.start({ 'GET /api/user/get_user_limit_info': () => ok(limits) });
    const { store } = renderWithHost(<VideoHubPage />, {
      user: demoUser({ templateIds: [1, 3] }),
      route: '/video',
    });

    expect(await within(card('漫剪视频')).findByText('剩余生成 3 次（含奖励 1 次）')).toBeVisible();
    expect(within(card('漫剪视频')).getByText('剩余合成 4 次')).toBeVisible();
    expect(within(card('解压视频')).getByText('剩余生成 5 次')).toBeVisible();
    expect(within(card('解压视频')).getByText('剩余合成 6 次')).toBeVisible();
    // Types without their template id (AI漫剧 2, 滚屏 4, 反推 5, 营销 6) are not offered.
    for (const name of ['AI漫剧', '滚屏视频', '反推视频', '营销视频']) {
      expect(screen.queryByRole('group', { name })).not.toBeInTheDocument();
    }
    // The real-person drama needs no template id.
    expect(card('真人短剧')).toBeInTheDocument();
    expect(store.get(usageLimitsAtom)).toEqual(limits);
  });

  it('says on both cards that AI漫剧 spends the comic clip’s counts', async () => {
    await backend.start({ 'GET /api/user/get_user_limit_info': () => ok(limits) });
    renderWithHost(<VideoHubPage />, {
      user: demoUser({ templateIds: [1, 2, 3] }),
      route: '/video',
    });
    const anime = card('AI漫剧');
    expect(await within(anime).findByText('剩余生成 3 次（含奖励 1 次）')).toBeVisible();
    expect(within(anime).getByTestId('shared-count')).toHaveTextContent('与漫剪视频共用次数');
    expect(within(card('漫剪视频')).getByTestId('shared-count')).toHaveTextContent(
      'AI漫剧也使用这些次数',
    );
    // Counts of their own say nothing of sharing.
    expect(within(card('解压视频')).queryByTestId('shared-count')).not.toBeInTheDocument();
    expect(within(card('海外漫剪视频')).queryByTestId('shared-count')).not.toBeInTheDocument();
  });

  it('says on the AI漫剧 card whose counts it spends, even without the comic clip', async () => {
    await backend.start({ 'GET /api/user/get_user_limit_info': () => ok(limits) });
    renderWithHost(<VideoHubPage />, { user: demoUser({ templateIds: [2] }), route: '/video' });
    expect(await within(card('AI漫剧')).findByTestId('shared-count')).toHaveTextContent(
      '与漫剪视频共用次数',
    );
  });

  it('disables a type with nothing left and says why', async () => {
    await backend.start({ 'GET /api/user/get_user_limit_info': () => ok(limits) });
    renderWithHost(<VideoHubPage />, { route: '/video' });
    const overseas = card('海外漫剪视频');
    expect(
      await within(overseas).findByText('海外漫剪视频的生成次数已用完，暂时不能制作'),
    ).toBeVisible();
    expect(within(overseas).getByRole('button', { name: '开始制作海外漫剪视频' })).toBeDisabled();
    expect(
      within(card('漫剪视频')).getByRole('button', { name: '开始制作漫剪视频' }),
    ).toBeEnabled();
  });

  it('starts the comic clip on /video/config, the overseas one with videoType=5', async () => {
    await backend.start({
      'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainOverseaGenCount: 1 })),
    });
    renderWithHost(<VideoHubPage />, { route: '/video' });
    const start = await screen.findByRole('button', { name: '开始制作海外漫剪视频' });
    await screen.findByText('剩余生成 1 次');
    fireEvent.click(start);
    expect(screen.getByTestId('location')).toHaveTextContent('/video/config?videoType=5');
  });

  it('keeps the phone variant on /m: the next page is /m/video/config', async () => {
    await backend.start({});
    const { container } = renderWithHost(<VideoHubPage />, { route: '/m/video' });
    expect(container.querySelector('[data-layout="phone"]')).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: '开始制作漫剪视频' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/m/video/config?videoType=0');
  });

  it('keeps ?type=composite for the host menu', async () => {
    await backend.start({});
    renderWithHost(<VideoHubPage />, { route: '/video?type=composite' });
    await screen.findByRole('button', { name: '开始制作漫剪视频' });
    expect(screen.getByTestId('location')).toHaveTextContent('/video?type=composite');
  });

  it('lists the videos being made, each leading to its progress', async () => {
    await backend.start({
      'GET /api/video/get_works': () =>
        ok(page([demoWork(31, { title: '山中小记' }), demoWork(32, { title: '只是文案' })])),
      'GET /api/video/get_work_result': ({ query }) =>
        ok(
          query.workId === '31'
            ? demoResult(31, { stage: 'voice', progress: 62 })
            : demoResult(32, { taskId: null, state: 'succeeded', stage: '', progress: 0 }),
        ),
    });
    renderWithHost(<VideoHubPage />, { route: '/video' });
    const link = await screen.findByRole('link', { name: '查看进度 山中小记' });
    expect(within(link).getByText('漫剪视频 · 配音')).toBeVisible();
    expect(screen.queryByText('只是文案')).not.toBeInTheDocument();
    fireEvent.click(link);
    expect(screen.getByTestId('location')).toHaveTextContent('/video/production?workId=31');
  });

  it('says in Chinese when the counts or the tasks cannot load, and retries', async () => {
    let fail = true;
    await backend.start({
      'GET /api/user/get_user_limit_info': () =>
        fail ? refuse(500, '服务繁忙，请稍后再试') : ok(limits),
      'GET /api/video/get_works': () => (fail ? refuse(500, '作品列表暂时不可用') : ok(page([]))),
    });
    renderWithHost(<VideoHubPage />, { route: '/video' });
    expect(await screen.findByText('剩余次数加载失败：服务繁忙，请稍后再试')).toBeVisible();
    expect(await screen.findByText('生成任务加载失败：作品列表暂时不可用')).toBeVisible();
    fail = false;
    for (const button of screen.getAllByRole('button', { name: '重新加载' }))
      fireEvent.click(button);
    expect(await screen.findByText('剩余生成 3 次（含奖励 1 次）')).toBeVisible();
    expect(await screen.findByText('暂无进行中的视频')).toBeVisible();
  });
});
