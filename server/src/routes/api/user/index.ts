import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UserStatus } from '@kol/shared-sdk/contracts';
import { userEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, conflict, forbidden, tooManyRequests } from '../../../http/api-error';
import { toUserInfo } from '../../../repositories/users';
import { decoyPasswordHash, verifyPassword } from '../../../security/secrets';
import { defineRoute } from '../../define-route';

/** One message for a wrong username and a wrong password, so neither can be probed. */
const BAD_CREDENTIALS = '用户名或密码错误';
const TICKET_TTL_MS = 60_000;

function nickname(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest('「昵称」不能为空');
  return trimmed;
}

export default async function userRoutes(app: FastifyInstance) {
  const { loginLimit } = app.config;

  async function assertLoginAllowed(request: FastifyRequest, username: string) {
    const since = new Date(Date.now() - loginLimit.windowMs);
    const [byUser, byIp] = await Promise.all([
      app.loginFailures.countSince(`user:${username}`, since),
      app.loginFailures.countSince(`ip:${request.ip}`, since),
    ]);
    if (byUser >= loginLimit.maxPerUsername || byIp >= loginLimit.maxPerIp) {
      throw tooManyRequests(
        `登录失败次数过多，请 ${Math.ceil(loginLimit.windowMs / 60_000)} 分钟后再试`,
      );
    }
  }

  defineRoute(app, userEndpoints.login, async ({ body, request, reply }) => {
    const username = body.username.trim();
    await assertLoginAllowed(request, username);
    const user = await app.users.findByUsername(username);
    // Hash even when there is no such user, so the answer takes as long either way.
    const valid = await verifyPassword(
      body.password,
      user?.password_hash ?? (await decoyPasswordHash()),
    );
    if (!user || !user.password_hash || !valid) {
      const since = new Date(Date.now() - loginLimit.windowMs);
      await app.loginFailures.record([`user:${username}`, `ip:${request.ip}`], since);
      throw badRequest(BAD_CREDENTIALS);
    }
    if (user.disabled) throw forbidden('账号已停用，请联系管理员');
    await app.loginFailures.clear(`user:${username}`);
    await app.auth.startSession(request, reply, user);
    return toUserInfo(user);
  });

  defineRoute(app, userEndpoints.current, async ({ request, reply }) => {
    return toUserInfo(await app.auth.requireUser(request, reply));
  });

  defineRoute(
    app,
    userEndpoints.logout,
    async ({ request, reply }) => {
      await app.auth.endSession(request, reply);
      return null;
    },
    { stateChanging: true },
  );

  defineRoute(
    app,
    userEndpoints.ticket,
    async ({ request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      const { ticket, expiresAt } = await app.tickets.issue(user.id, TICKET_TTL_MS);
      return { ticket, expiresAt: expiresAt.toISOString() };
    },
    { stateChanging: true },
  );

  defineRoute(app, userEndpoints.register, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    if (user.status !== UserStatus.unregistered) throw conflict('账号已完成注册');
    const updated = await app.users.update(user.id, {
      nickname: nickname(body.nickname),
      phone: body.phone,
      invitation_code: body.invitationCode ?? user.invitation_code,
      questionnaire: body.questionnaire ?? user.questionnaire,
      status: UserStatus.normal,
    });
    return toUserInfo(updated ?? user);
  });

  defineRoute(app, userEndpoints.updateUserInfo, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    // The posting account, once given, may be changed but not removed: the shell keeps asking
    // for it while it is empty, so clearing it would only bring the prompt back.
    if (body.homePageUrl === '' && user.home_page_url !== '') {
      throw badRequest('「发布账号主页」填写后不能清空，可以修改为新的地址');
    }
    const updated = await app.users.update(user.id, {
      ...(body.nickname !== undefined ? { nickname: nickname(body.nickname) } : {}),
      ...(body.avatar !== undefined ? { avatar: body.avatar } : {}),
      ...(body.phone !== undefined ? { phone: body.phone } : {}),
      ...(body.homePageUrl !== undefined ? { home_page_url: body.homePageUrl } : {}),
      ...(body.feedback !== undefined ? { feedback: body.feedback } : {}),
    });
    return toUserInfo(updated ?? user);
  });

  defineRoute(app, userEndpoints.updateUserDraft, async ({ body, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    const updated = await app.users.update(user.id, { draft_path: body.draftPath });
    return toUserInfo(updated ?? user);
  });

  defineRoute(app, userEndpoints.getUserLimitInfo, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.quotaService.limits(user.id);
  });
}
