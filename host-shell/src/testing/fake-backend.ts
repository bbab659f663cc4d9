import {
  configureHttp,
  type Notice,
  type NoticeCategory,
  type UsageLimits,
  type UserInfo,
} from '@kol/shared-sdk';
import { startLoopbackServer, usageLimits, type SeenRequest } from '@kol/shared-sdk/testing';

export const demoUser = (overrides: Partial<UserInfo> = {}): UserInfo => ({
  userId: 1,
  username: 'demo',
  nickname: '演示用户',
  userData: '',
  phone: '',
  avatar: '',
  draftPath: '',
  status: -1,
  homePageUrl: 'https://example.com/demo',
  functionalLevel: 1,
  registerSource: '',
  invitationCode: '',
  questionnaire: -1,
  feedback: 1,
  templateIds: [0, 1, 2, 3, 4, 5, 6],
  ...overrides,
});

/** Every one of the 24 limit fields at the same value. */
export const limits = (value: number): UsageLimits => usageLimits({}, value);

/** What the fake backend answers; tests change it between steps. */
export interface BackendState {
  user: UserInfo | null;
  limits: UsageLimits;
  notices: Notice[];
  categories: NoticeCategory[];
  /** Paths that answer 401 even with a user, to simulate a session that ended. */
  unauthorizedPaths: Set<string>;
  ticketValid: boolean;
}

const ok = (data: unknown) => ({ body: { code: 0, msg: '成功', data } });
const fail = (code: number, msg: string) => ({ status: code, body: { code, msg, data: null } });

/**
 * A loopback HTTP server that speaks the real server's envelope for the calls the shell makes,
 * so the SDK's real HTTP client runs in these tests.
 */
export async function startFakeBackend() {
  const state: BackendState = {
    user: demoUser(),
    limits: limits(10),
    notices: [],
    categories: [
      { id: 1, categoryName: '系统公告', categoryIcon: '' },
      { id: 2, categoryName: '功能更新', categoryIcon: '' },
    ],
    unauthorizedPaths: new Set(),
    ticketValid: true,
  };
  const server = await startLoopbackServer((request: SeenRequest) => {
    const { path, query, body } = request;
    if (state.unauthorizedPaths.has(path)) return fail(401, '登录已过期，请重新登录');
    switch (path) {
      case '/api/user/login': {
        const credentials = body as { username: string; password: string };
        if (credentials.password !== 'demo123456') return fail(400, '用户名或密码错误');
        state.user = demoUser({ username: credentials.username });
        return ok(state.user);
      }
      case '/api/sso/verify':
        if (!state.ticketValid || query.ticket !== 'ST-good')
          return fail(400, '登录票据无效或已过期');
        state.user = demoUser({ username: 'sso-user' });
        return ok(state.user);
      case '/api/user/logout':
        state.user = null;
        return ok(null);
      case '/api/sso/login':
        return ok({ url: 'https://sso.example.com/login?service=x' });
      case '/api/sso/logout':
        state.user = null;
        return ok({ url: 'https://sso.example.com/logout' });
      case '/api/platform/config':
        return ok({
          ssoHosts: [],
          contact: { title: '联系我们', lines: [{ label: '邮箱', value: 'kol@example.com' }] },
        });
    }
    if (!state.user) return fail(401, '请先登录');
    switch (path) {
      case '/api/user/current':
        return ok(state.user);
      case '/api/user/register':
        state.user = { ...state.user, ...(body as object), status: -1 };
        return ok(state.user);
      case '/api/user/get_user_limit_info':
        return ok(state.limits);
      case '/api/notice/get_notice_count':
        return ok({ count: state.notices.filter((n) => n.status === 0).length });
      case '/api/notice/get_notice_category':
        return ok(state.categories);
      case '/api/notice/list':
        return ok({ items: state.notices, total: state.notices.length });
      case '/api/notice/click': {
        const id = Number(query.noticeId);
        state.notices = state.notices.map((n) =>
          id === -1 || n.id === id ? { ...n, status: 1 } : n,
        );
        return ok({ count: state.notices.filter((n) => n.status === 0).length });
      }
      case '/api/video/get_user_newest_works':
        return ok([]);
      default:
        return fail(404, '接口不存在');
    }
  });
  configureHttp({ baseURL: server.origin });
  return { state, seen: server.seen, close: server.close };
}
