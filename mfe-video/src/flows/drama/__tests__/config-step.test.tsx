import { describe, expect, it } from '@jest/globals';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes, useNavigate } from '@kol/shared-sdk/router';
import { usageLimitsAtom } from '@kol/shared-sdk/state';
import { ok, refuse, renderWithHost, type FakeRoutes } from '@kol/shared-sdk/testing';
import {
  changeWork,
  videoBackendPerTest,
  workRoutes,
  type WorkState,
} from '../../../testing/backend';
import { demoLimits, demoWorkDetail } from '../../../testing/fixtures';
import { operaSession } from '../draft';
import { OperaConfigStep } from '../steps/config-step';

const backend = videoBackendPerTest();

/** Work 31 as the server holds it: made by save_text, saved over on its newest revision. */
let held: WorkState;

async function start(overrides: FakeRoutes = {}) {
  held = { work: demoWorkDetail(31, { type: 8 }) };
  return backend.start({
    'GET /api/user/get_user_limit_info': () => ok(demoLimits({ remainRealPeopleVideoCount: 2 })),
    ...workRoutes(held),
    ...overrides,
  });
}

const next = () => fireEvent.click(screen.getByRole('button', { name: '下一步：剧本台词' }));
const location = () => screen.getByTestId('location').textContent;

describe('/video/operaConfig', () => {
  it('makes the drama’s work with its settings (save_text type 8, save_video_info), then opens the script', async () => {
    const server = await start();
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    expect(screen.getByText('真人短剧 · 视频配置')).toBeVisible();
    expect(screen.getByText('字幕逐句显示为「角色：台词」，例如「小明：你好。」')).toBeVisible();
    fireEvent.change(screen.getByLabelText('作品标题'), { target: { value: '雨夜重逢' } });
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    fireEvent.click(screen.getByLabelText('黄色字幕'));
    fireEvent.click(await screen.findByLabelText(/^夜行/));

    next();

    await waitFor(() => expect(location()).toBe('/video/operaCaption?workId=31'));
    expect(server.calls('POST', '/api/video/save_text').map((call) => call.body)).toEqual([
      { type: 8, title: '雨夜重逢', text: '雨夜重逢' },
    ]);
    expect(server.calls('POST', '/api/video/save_video_info').map((call) => call.body)).toEqual([
      {
        workId: 31,
        revision: 1,
        settings: { aspect: '16:9', captionStyle: 'yellow', speed: 1, musicId: -2 },
      },
    ]);
    expect(operaSession.get('operaDraft')).toMatchObject({ workId: 31, title: '雨夜重逢' });
  });

  it('names an untitled drama itself and lets the server pick the music', async () => {
    const server = await start();
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    next();
    await waitFor(() => expect(location()).toBe('/video/operaCaption?workId=31'));
    expect(server.calls('POST', '/api/video/save_text')[0]?.body).toEqual({
      type: 8,
      title: '未命名短剧',
      text: '未命名短剧',
    });
    expect(server.calls('POST', '/api/video/save_video_info')[0]?.body).toEqual({
      workId: 31,
      revision: 1,
      settings: { aspect: '9:16', captionStyle: 'classic', speed: 1 },
    });
  });

  it('keeps every choice in KOL_OPERA_DRAFT, so a reload shows them again', async () => {
    await start();
    const first = renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    fireEvent.change(screen.getByLabelText('作品标题'), { target: { value: '重逢' } });
    fireEvent.click(screen.getByLabelText('底框字幕'));
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    fireEvent.click(await screen.findByLabelText(/^晨雾/));
    first.unmount();

    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    expect(screen.getByLabelText('作品标题')).toHaveValue('重逢');
    expect(screen.getByLabelText('底框字幕')).toBeChecked();
    expect(screen.getByLabelText('横屏 16:9')).toBeChecked();
    expect(await screen.findByLabelText(/^晨雾/)).toBeChecked();
    expect(JSON.parse(sessionStorage.getItem('KOL_OPERA_DRAFT') ?? '{}')).toMatchObject({
      title: '重逢',
      settings: { aspect: '16:9', captionStyle: 'box', musicId: -1 },
    });
    // The comic clip's settings are its own.
    expect(sessionStorage.getItem('KOL_VIDEO_CONFIG')).toBeNull();
  });

  it('back from the script: updates the same work, with the script as its text, on the revision read', async () => {
    const server = await start();
    held.work = { ...held.work, title: '重逢', revision: 3 };
    operaSession.set('operaDraft', {
      workId: 31,
      title: '重逢',
      settings: { aspect: '9:16', captionStyle: 'classic', speed: 1 },
      scenes: [
        {
          key: 's1',
          mediaUrl: '',
          mediaKind: '',
          mediaName: '',
          lines: [
            { key: 'l1', speaker: '小明', text: '你好。' },
            { key: 'l2', speaker: '小红', text: '好久不见。' },
          ],
        },
      ],
    });
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig?workId=31' });
    next();
    await waitFor(() => expect(location()).toBe('/video/operaCaption?workId=31'));
    expect(server.calls('POST', '/api/video/save_text')[0]?.body).toEqual({
      workId: 31,
      revision: 3,
      type: 8,
      title: '重逢',
      text: '小明：你好。\n小红：好久不见。',
    });
  });

  it('keeps the revision with the draft: a save after a reload is based on it, a change elsewhere merged in', async () => {
    const server = await start();
    const first = renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    fireEvent.change(screen.getByLabelText('作品标题'), { target: { value: '雨夜' } });
    next();
    await waitFor(() => expect(location()).toBe('/video/operaCaption?workId=31'));
    expect(operaSession.get('operaDraft')).toMatchObject({ saved: { workId: 31, revision: 2 } });
    first.unmount();
    // Another tab chose music for the drama meanwhile.
    changeWork(held, (work) => ({ settings: { ...work.settings, musicId: -1 } }));
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig?workId=31' });
    fireEvent.change(screen.getByLabelText('作品标题'), { target: { value: '雨夜重逢' } });
    next();
    await waitFor(() => expect(held.work.title).toBe('雨夜重逢'));
    expect(
      server
        .calls('POST', '/api/video/save_text')
        .map((call) => (call.body as { revision?: number }).revision),
    ).toEqual([undefined, 2, 3]);
    // Read once, for the merge: the draft's own revision was the base.
    expect(server.calls('GET', '/api/video/work_info')).toHaveLength(1);
    expect(held.work.settings.musicId).toBe(-1);
    expect(screen.queryByText('内容已在其他页面修改')).not.toBeInTheDocument();
  });

  it('reads a drama from the server in a fresh tab (work_info)', async () => {
    await start({
      // Answered after the page's counts: under jest, antd names both radio groups (caption style,
      // music) `test-id`, so a render of the form after the draft (the counts arriving in the
      // same flush of the query client) would uncheck one of the two checked radios.
      'GET /api/video/work_info': () =>
        ok(
          demoWorkDetail(31, {
            type: 8,
            title: '旧剧',
            text: '小明：你好。',
            settings: { aspect: '16:9', captionStyle: 'none', musicId: 0 },
          }),
          50,
        ),
    });
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig?workId=31' });
    await waitFor(() => expect(screen.getByLabelText('作品标题')).toHaveValue('旧剧'));
    expect(screen.getByLabelText('横屏 16:9')).toBeChecked();
    expect(screen.getByLabelText('不显示字幕')).toBeChecked();
    expect(screen.getByLabelText('无背景音乐')).toBeChecked();
  });

  it('shows the server’s refusal and keeps every choice; a retry saves the same work', async () => {
    let refused = true;
    const server = await start({
      'POST /api/video/save_video_info': (request) =>
        refused
          ? refuse(400, '「背景音乐」不存在', 400)
          : workRoutes(held)['POST /api/video/save_video_info'](request),
    });
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    fireEvent.change(screen.getByLabelText('作品标题'), { target: { value: '雨夜' } });
    fireEvent.click(screen.getByLabelText('横屏 16:9'));
    next();
    expect(await screen.findByText('「背景音乐」不存在')).toBeVisible();
    // The made work enters the address as the refusal is shown: a render apart on a busy machine.
    await waitFor(() => expect(location()).toBe('/video/operaConfig?workId=31'));
    expect(screen.getByLabelText('作品标题')).toHaveValue('雨夜');
    expect(screen.getByLabelText('横屏 16:9')).toBeChecked();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: '下一步：剧本台词' })).not.toHaveClass(
        'ant-btn-loading',
      ),
    );
    refused = false;
    next();
    await waitFor(() => expect(location()).toBe('/video/operaCaption?workId=31'));
    expect(server.calls('POST', '/api/video/save_text').map((call) => call.body)).toEqual([
      { type: 8, title: '雨夜', text: '雨夜' },
      { workId: 31, revision: 1, type: 8, title: '雨夜', text: '雨夜' },
    ]);
  });

  it('with no drama count left, refreshes the shared counts, blocks the page and goes back', async () => {
    const limits = demoLimits({ remainRealPeopleVideoCount: 0 });
    await start({ 'GET /api/user/get_user_limit_info': () => ok(limits) });
    function From() {
      const navigate = useNavigate();
      return <button onClick={() => navigate('/video/operaConfig')}>去配置</button>;
    }
    const { store } = renderWithHost(
      <Routes>
        <Route path="/video" element={<From />} />
        <Route path="/video/operaConfig" element={<OperaConfigStep />} />
      </Routes>,
      { route: '/video' },
    );
    fireEvent.click(screen.getByRole('button', { name: '去配置' }));
    expect(await screen.findByText('真人短剧的生成次数已用完')).toBeVisible();
    expect(store.get(usageLimitsAtom)).toEqual(limits);
    expect(screen.queryByLabelText('作品标题')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '返回上一页' }));
    expect(location()).toBe('/video');
  });

  it('a reward count alone is enough to make a drama', async () => {
    await start({
      'GET /api/user/get_user_limit_info': () =>
        ok(demoLimits({ remainRealPeopleVideoCount: 0, remainRewardsRealPeopleVideoCount: 1 })),
    });
    renderWithHost(<OperaConfigStep />, { route: '/video/operaConfig' });
    await screen.findByLabelText(/^夜行/);
    expect(screen.queryByText('真人短剧的生成次数已用完')).not.toBeInTheDocument();
    expect(screen.getByLabelText('作品标题')).toBeVisible();
  });
});
