import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createQueryClient,
  currentUserAtom,
  noticesAtom,
  unreadNoticeCountAtom,
} from '@kol/shared-sdk/state';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { currentUrl, renderApp, setViewportWidth } from '../../testing/render-app';
import { demoUser, limits, startFakeBackend } from '../../testing/fake-backend';
import { prefetchStartupUser, takeStartupUser } from '../../session/sign-on';

let backend: Awaited<ReturnType<typeof startFakeBackend>>;

beforeAll(async () => {
  backend = await startFakeBackend();
});
afterAll(() => backend.close());
afterEach(() => {
  cleanup();
  setViewportWidth(1280);
  backend.state.user = demoUser();
  backend.state.limits = limits(10);
  backend.state.notices = [];
  backend.state.unauthorizedPaths.clear();
  backend.seen.length = 0;
});

const callsTo = (path: string) => backend.seen.filter((request) => request.path === path);

describe('the shell', () => {
  it('shows the signed-in frame: logo with beta badge, header items, menu, watermark', async () => {
    renderApp('/', {
      config: {
        contact: { title: '联系我们', lines: [{ label: '邮箱', value: 'kol@example.com' }] },
      },
    });
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(screen.getByText('KOL Studio')).toBeInTheDocument();
    expect(screen.getByText('Beta')).toBeInTheDocument();
    expect(screen.getByText('联系我们')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /^通知/ })).toBeInTheDocument();
    expect(screen.getByTestId('watermark')).toHaveAttribute('data-username', 'demo');
    const menu = screen.getByTestId('side-menu');
    for (const text of [
      '首页',
      '文本创作',
      '一键成文',
      '创意写作',
      '视频创作',
      '视频合成',
      '视频工具',
      '我的作品',
      '我的角色',
      '我的文案',
      '漫剪视频',
      'AI漫剧',
      '解压视频',
      '滚屏视频',
      '反推视频',
      '营销视频',
      '社区公约',
    ]) {
      expect(within(menu).getByText(text)).toBeInTheDocument();
    }
  });

  it('shows only the work items whose template ids the user has; my roles always', async () => {
    backend.state.user = demoUser({ templateIds: [0, 4] });
    renderApp('/');
    const menu = await screen.findByTestId('side-menu');
    expect(within(menu).getByText('我的角色')).toBeInTheDocument();
    expect(within(menu).getByText('我的文案')).toBeInTheDocument();
    expect(within(menu).getByText('滚屏视频')).toBeInTheDocument();
    for (const hidden of ['漫剪视频', 'AI漫剧', '解压视频', '反推视频', '营销视频']) {
      expect(within(menu).queryByText(hidden)).toBeNull();
    }
  });

  it('preselects the composition or tools item from ?type=', async () => {
    renderApp('/?type=tools');
    const menu = await screen.findByTestId('side-menu');
    expect(within(menu).getByText('视频工具').closest('li')).toHaveClass('ant-menu-item-selected');
    cleanup();
    renderApp('/?type=composite');
    const again = await screen.findByTestId('side-menu');
    expect(within(again).getByText('视频合成').closest('li')).toHaveClass('ant-menu-item-selected');
  });

  it('opens the community convention with its four rules from the menu', async () => {
    renderApp('/');
    fireEvent.click(within(await screen.findByTestId('side-menu')).getByText('社区公约'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/遵守国家法律法规/)).toBeInTheDocument();
    expect(within(dialog).getByText(/尊重知识产权和他人的合法权益/)).toBeInTheDocument();
    expect(within(dialog).getByText(/仅上传原创或已获得授权的素材/)).toBeInTheDocument();
    expect(within(dialog).getByText(/依法向有关部门报告/)).toBeInTheDocument();
  });

  it('shows a development badge while a remote is overridden, and its cross clears the override', async () => {
    renderApp('/');
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(screen.queryByTestId('dev-override-badge')).toBeNull();
    cleanup();

    const manifestUrl = 'http://localhost:3102/mf-manifest.json';
    localStorage.setItem('KOL_REMOTE_OVERRIDES', JSON.stringify({ mfe_video: manifestUrl }));
    renderApp('/', {
      config: { remoteOverrides: true },
      overrides: [{ name: 'mfe_video', manifestUrl, source: 'localhost:3102' }],
    });
    expect(await screen.findByTestId('dev-override-badge')).toHaveTextContent(
      '开发模式：mfe_video 来自 localhost:3102',
    );
    // jsdom cannot reload; the value is gone, which is what the next load reads.
    fireEvent.click(screen.getByRole('button', { name: '清除开发模式覆盖' }));
    expect(localStorage.getItem('KOL_REMOTE_OVERRIDES')).toBeNull();
  });

  it('opens contact us with the configured details', async () => {
    renderApp('/', {
      config: {
        contact: { title: '联系我们', lines: [{ label: '邮箱', value: 'kol@example.com' }] },
      },
    });
    fireEvent.click(await screen.findByText('联系我们'));
    expect(await screen.findByText('kol@example.com')).toBeInTheDocument();
  });

  it('names every page: the claim’s title as the tab’s title, an outside page in a main', async () => {
    renderApp('/tts', {
      claims: [{ path: '/tts', layout: 'outside', title: '文字转语音', remote: 'mfe_video' }],
    });
    await waitFor(() => expect(document.title).toBe('文字转语音 - KOL Studio'));
    // Shown once the remote's page (here its error page: no remote runs in these tests) is.
    expect(await screen.findByRole('main')).toBeInTheDocument();
    cleanup();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('你好，');
    expect(screen.getByRole('main')).toContainElement(screen.getByTestId('home-page'));
  });

  it('offers no contact-us entry when no contact lines are configured', async () => {
    renderApp('/', { config: { contact: { title: '联系我们', lines: [] } } });
    expect(await screen.findByRole('button', { name: /^通知/ })).toBeInTheDocument();
    expect(screen.queryByText('联系我们')).toBeNull();
  });

  it('does not fetch the user on the exempt pages', async () => {
    renderApp('/login');
    expect(await screen.findByText('登录 KOL Studio')).toBeInTheDocument();
    expect(callsTo('/api/user/current')).toHaveLength(0);
  });

  it('goes to /home when the user cannot be fetched, and to /login?returnUrl=/video/cut from /video/cut', async () => {
    backend.state.user = null;
    renderApp('/video');
    await waitFor(() => expect(currentUrl()).toBe('/home?returnUrl=%2Fvideo'));
    cleanup();
    renderApp('/video/cut');
    await waitFor(() => expect(currentUrl()).toBe('/login?returnUrl=/video/cut'));
  });

  it('takes the user the start-up fetched beside the registry: one request, the frame shown', async () => {
    prefetchStartupUser('/');
    renderApp('/');
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(callsTo('/api/user/current')).toHaveLength(1);
  });

  it('goes to /home, not /login, when the start-up fetch of the user answers 401', async () => {
    backend.state.user = null;
    prefetchStartupUser('/video');
    renderApp('/video');
    await waitFor(() => expect(currentUrl()).toBe('/home?returnUrl=%2Fvideo'));
    expect(callsTo('/api/user/current')).toHaveLength(1);
  });

  it('starts no user fetch at start-up for a page that needs none', async () => {
    prefetchStartupUser('/login');
    expect(takeStartupUser()).toBeNull();
    renderApp('/login');
    expect(await screen.findByText('登录 KOL Studio')).toBeInTheDocument();
    expect(callsTo('/api/user/current')).toHaveLength(0);
  });

  it('signs in on /login and goes to the return url', async () => {
    backend.state.user = null;
    renderApp('/login?returnUrl=/user');
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'demo' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('用户名或密码错误')).toBeInTheDocument();
    expect(currentUrl()).toBe('/login?returnUrl=/user');
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'demo123456' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(currentUrl()).toBe('/user'));
    // The refusal of the first try does not stay over the page the sign-in led to (a toast
    // lives 3 s: it is gone within waitFor's first second, not when it runs out). The removal
    // is a render after the navigation, so it is awaited rather than read at once (a slowed
    // machine failed the read at once).
    await waitFor(
      () =>
        expect(document.querySelector('.ant-message-notice')?.textContent ?? '').not.toContain(
          '用户名或密码错误',
        ),
      { timeout: 1000 },
    );
  });

  it('brings a signed-out visitor of a deep link back to it through /home and /login', async () => {
    backend.state.user = null;
    renderApp('/work/comics?tab=2');
    await waitFor(() =>
      expect(currentUrl()).toBe(`/home?returnUrl=${encodeURIComponent('/work/comics?tab=2')}`),
    );
    fireEvent.click(await screen.findByRole('button', { name: /登\s*录/ }));
    await waitFor(() =>
      expect(currentUrl()).toBe(`/login?returnUrl=${encodeURIComponent('/work/comics?tab=2')}`),
    );
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'demo' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'demo123456' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(currentUrl()).toBe('/work/comics?tab=2'));
  });

  it('starts a session with an empty cache: nothing another account loaded on this tab shows', async () => {
    backend.state.user = null;
    const queryClient = createQueryClient();
    // What the session before this one loaded, on this tab.
    const theirs = ['works', { withText: true, pageIndex: 1, pageSize: 10 }];
    queryClient.setQueryData(theirs, { items: [], total: 0 });
    renderApp('/login?returnUrl=/user', { queryClient });
    fireEvent.change(await screen.findByLabelText('用户名'), { target: { value: 'demo' } });
    fireEvent.change(screen.getByLabelText('密码'), { target: { value: 'demo123456' } });
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    await waitFor(() => expect(currentUrl()).toBe('/user'));
    expect(queryClient.getQueryData(theirs)).toBeUndefined();
  });

  it('sends a 401 in the middle of a session to /login', async () => {
    const { store } = renderApp('/');
    await screen.findByTestId('home-page');
    backend.state.unauthorizedPaths.add('/api/notice/list');
    fireEvent.click(screen.getByRole('button', { name: /^通知/ }));
    await waitFor(() => expect(currentUrl()).toBe('/login'));
    expect(store.get(currentUserAtom)).toBeNull();
  });

  it('sends a user with status 0 to /register, then home once registered', async () => {
    backend.state.user = demoUser({ status: 0 });
    renderApp('/');
    await waitFor(() => expect(currentUrl()).toBe('/register'));
    fireEvent.change(await screen.findByLabelText('昵称'), { target: { value: '新用户' } });
    fireEvent.change(screen.getByLabelText('手机号'), { target: { value: '13800000000' } });
    fireEvent.click(screen.getByRole('button', { name: /完成注册/ }));
    await waitFor(() => expect(currentUrl()).toBe('/'));
  });

  it('goes back from /work/convert at functional level 0', async () => {
    backend.state.user = demoUser({ functionalLevel: 0 });
    renderApp('/');
    await screen.findByTestId('home-page');
    fireEvent.click(within(screen.getByTestId('side-menu')).getByText('反推视频'));
    await waitFor(() => expect(currentUrl()).toBe('/'));
  });

  it('goes back from a composition configuration page without quota for its type', async () => {
    backend.state.limits = { ...limits(0), remainGenCount: 1 };
    renderApp('/');
    await screen.findByTestId('home-page');
    await waitFor(() => expect(callsTo('/api/user/get_user_limit_info')).toHaveLength(1));
    act(() => window.history.pushState({ idx: 1 }, '', '/video/operaConfig'));
    act(() => window.dispatchEvent(new PopStateEvent('popstate', { state: { idx: 1 } })));
    await waitFor(() => expect(currentUrl()).toBe('/'));
  });

  it('shows the no-permission message on a work page without its template id', async () => {
    backend.state.user = demoUser({ templateIds: [0] });
    renderApp('/work/comics');
    expect(await screen.findByText('抱歉，您没有权限访问该页面。')).toBeInTheDocument();
    // The shell around it still works.
    expect(screen.getByTestId('side-menu')).toBeInTheDocument();
  });

  it('shows the error page for a route whose remote is not available, with a retry', async () => {
    renderApp('/generate');
    expect(await screen.findByText('模块暂不可用')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /重\s*试/ })).toBeInTheDocument();
    expect(screen.getByTestId('side-menu')).toBeInTheDocument();
  });

  it('closes the user menu once 个人中心 is chosen', async () => {
    renderApp('/');
    fireEvent.click(await screen.findByTestId('user-menu'));
    fireEvent.click(await screen.findByText('个人中心'));
    await waitFor(() => expect(currentUrl()).toBe('/user'));
    await waitFor(() =>
      expect(document.querySelector('.ant-dropdown:not(.ant-dropdown-hidden)')).toBeNull(),
    );
  });

  it('signs out from the user menu', async () => {
    renderApp('/');
    fireEvent.click(await screen.findByTestId('user-menu'));
    fireEvent.click(await screen.findByText('退出登录'));
    await waitFor(() => expect(currentUrl()).toBe('/login'));
    expect(callsTo('/api/user/logout')).toHaveLength(1);
  });

  it('verifies a ticket and goes home; a bad ticket shows the message and goes home', async () => {
    backend.state.user = null;
    renderApp('/login/ticket?ticket=ST-good');
    await waitFor(() => expect(currentUrl()).toBe('/'));
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    cleanup();
    backend.state.user = null;
    renderApp('/login/ticket?ticket=ST-bad');
    expect(await screen.findByText('登录票据无效或已过期')).toBeInTheDocument();
    await waitFor(() => expect(currentUrl()).not.toContain('/login/ticket'));
  });

  it('redirects a phone-width screen to /m and back, keeping the query', async () => {
    setViewportWidth(375);
    renderApp('/?from=share');
    await waitFor(() => expect(currentUrl()).toBe('/m?from=share'));
    expect(await screen.findByTestId('mobile-layout')).toBeInTheDocument();
    // The folded menu opens as a dialog named by what it holds.
    fireEvent.click(screen.getByRole('button', { name: '菜单' }));
    expect(await screen.findByRole('dialog', { name: '菜单' })).toBeInTheDocument();
    cleanup();
    setViewportWidth(1280);
    renderApp('/m/video?x=1');
    await waitFor(() => expect(currentUrl()).toBe('/video?x=1'));
  });
});

describe('the notices bell', () => {
  it('asks for the list as soon as the bell is reached, before the click', async () => {
    renderApp('/generate');
    const bell = await screen.findByRole('button', { name: /^通知/ });
    expect(callsTo('/api/notice/list')).toHaveLength(0);
    act(() => bell.focus());
    await waitFor(() => expect(callsTo('/api/notice/list')).toHaveLength(1));
    fireEvent.click(bell);
    await screen.findByTestId('notices-panel');
    expect(callsTo('/api/notice/list')).toHaveLength(1);
  });

  it('counts unread, lists by category, reads one and then all', async () => {
    backend.state.notices = [
      {
        id: 1,
        categoryId: 1,
        title: '维护通知',
        content: '今晚维护 <b>不是HTML</b>',
        status: 0,
        updateTime: '2026-11-20 10:00:00',
      },
      {
        id: 2,
        categoryId: 2,
        title: '新功能',
        content: '滚屏视频上线',
        status: 0,
        updateTime: '2026-11-21 10:00:00',
      },
      {
        id: 3,
        categoryId: 2,
        title: '旧功能',
        content: '已读的',
        status: 1,
        updateTime: '2026-11-19 10:00:00',
      },
    ];
    const { store } = renderApp('/');
    await waitFor(() => expect(store.get(unreadNoticeCountAtom)).toBe(2));
    // The badge's number is in the bell's name.
    fireEvent.click(screen.getByRole('button', { name: '通知 2 条未读' }));
    const panel = await screen.findByTestId('notices-panel');
    expect(await within(panel).findByText('系统公告')).toBeInTheDocument();
    expect(within(panel).getByText('功能更新')).toBeInTheDocument();
    expect(within(panel).getByText('今晚维护 <b>不是HTML</b>')).toBeInTheDocument();

    fireEvent.click(within(panel).getByTestId('notice-1'));
    await waitFor(() => expect(store.get(unreadNoticeCountAtom)).toBe(1));
    expect(callsTo('/api/notice/click').at(-1)?.query).toEqual({ noticeId: '1' });

    fireEvent.click(within(panel).getByRole('button', { name: '全部已读' }));
    await waitFor(() => expect(store.get(unreadNoticeCountAtom)).toBe(0));
    expect(callsTo('/api/notice/click').at(-1)?.query).toEqual({ noticeId: '-1' });
    expect(store.get(noticesAtom).every((notice) => notice.status === 1)).toBe(true);
  });
});
