import type { FastifyInstance } from 'fastify';
import { UserStatus } from '@kol/shared-sdk/contracts';
import { userEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, conflict, forbidden, tooManyRequests } from '../../../http/api-error';
import { ipKey, usernameIpKey } from '../../../repositories/login-attempts';
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

/** 「30 秒」 or, from a minute on, 「3 分钟」 (rounded up: never sooner than the truth). */
function waitText(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return seconds < 60 ? `${seconds} 秒` : `${Math.ceil(seconds / 60)} 分钟`;
}

export default async function userRoutes(app: FastifyInstance) {
  const { loginLimit } = app.config;

  defineRoute(app, userEndpoints.login, async ({ body, request, reply }) => {
    const username = body.username.trim();
    // Limited per (username, IP) and per IP, never per username alone: failures from an
    // attacker's address slow that address down and cannot lock the user out elsewhere.
    const userIp = usernameIpKey(request.ip, username);
    const ip = ipKey(request.ip);
    // Checked and counted in one step before the hash, so a burst of parallel guesses is
    // counted guess by guess and only the free ones reach the password check.
    const verdict = await app.loginAttempts.take(
      [
        { key: userIp, free: loginLimit.freePerUsernameIp },
        { key: ip, free: loginLimit.freePerIp },
      ],
      loginLimit,
    );
    if (!verdict.allowed) {
      app.metrics.signIns.inc({ method: 'password', outcome: 'rate_limited' });
      reply.header('retry-after', String(Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))));
      throw tooManyRequests(`登录失败次数过多，请 ${waitText(verdict.retryAfterMs)}后再试`);
    }
    const user = await app.users.findByUsername(username);
    // Hash even when there is no such user, so the answer takes as long either way.
    const valid = await verifyPassword(
      body.password,
      user?.password_hash ?? (await decoyPasswordHash()),
    );
    if (!user || !user.password_hash || !valid) {
      // The failure is counted already (by take); what is left is housekeeping.
      await app.loginAttempts.prune(loginLimit.resetMs);
      app.metrics.signIns.inc({ method: 'password', outcome: 'bad_credentials' });
      throw badRequest(BAD_CREDENTIALS);
    }
    // The right password of a disabled account keeps its count: it signs nobody in.
    if (user.disabled) {
      app.metrics.signIns.inc({ method: 'password', outcome: 'disabled' });
      throw forbidden('账号已停用，请联系管理员');
    }
    await app.loginAttempts.succeeded(userIp, ip);
    await app.auth.startSession(request, reply, user);
    app.metrics.signIns.inc({ method: 'password', outcome: 'success' });
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
