import type { FastifyInstance, FastifyRequest } from 'fastify';
import { QUOTA_FIELDS } from '@kol/shared-sdk/contracts';
import { adminEndpoints, type AdminUser } from '@kol/shared-sdk/contracts';
import { badRequest, conflict, notFound } from '../../../http/api-error';
import { toUserInfo, type UserPatch, type UserRecord } from '../../../repositories/users';
import { hashPassword } from '../../../security/secrets';
import { defineRoute, type RouteOptions } from '../../define-route';
import { actorOf } from './actor';
import remoteAdminRoutes from './remotes';

const ADMIN: RouteOptions = { security: ['adminToken'], stateChanging: false };
const DEFAULT_NOTICE_CATEGORY = '系统公告';

function toAdminUser(user: UserRecord): AdminUser {
  return { ...toUserInfo(user), disabled: user.disabled, createdAt: user.created_at.toISOString() };
}

/**
 * The admin API behind the ops CLI. Authenticated by a bearer token rather than the session
 * cookie, so the platform-header rule for browser calls does not apply here.
 */
export default async function adminRoutes(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => app.auth.requireAdmin(request));
  // Release operations (issue 5), behind the same token check.
  await app.register(remoteAdminRoutes);

  async function findUser(username: string): Promise<UserRecord> {
    const user = await app.users.findByUsername(username);
    if (!user) throw notFound(`用户 ${username} 不存在`);
    return user;
  }

  async function updateAudited(
    request: FastifyRequest,
    user: UserRecord,
    patch: UserPatch,
    action: string,
  ) {
    const updated = await app.users.update(user.id, patch);
    if (!updated) throw notFound(`用户 ${user.username} 不存在`);
    if (updated.disabled) await app.sessions.deleteForUser(updated.id);
    await app.audit.record({
      actor: actorOf(request),
      action,
      target: `user:${user.username}`,
      details: {
        before: auditView(user),
        after: auditView(updated),
        passwordChanged: patch.password_hash !== undefined,
      },
    });
    return toAdminUser(updated);
  }

  defineRoute(
    app,
    adminEndpoints.listUsers,
    async () => ({ items: (await app.users.list()).map(toAdminUser) }),
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.createUser,
    async ({ body, request }) => {
      const created = await app.users.create({
        username: body.username,
        password_hash: await hashPassword(body.password),
        nickname: body.nickname ?? body.username,
        template_ids: body.templateIds ? [...new Set(body.templateIds)] : [],
        functional_level: body.functionalLevel ?? 0,
        status: body.status ?? -1,
        register_source: 'admin',
      });
      if (!created) throw conflict(`用户名 ${body.username} 已存在`);
      await app.audit.record({
        actor: actorOf(request),
        action: 'user.create',
        target: `user:${created.username}`,
        details: { after: auditView(created) },
      });
      return toAdminUser(created);
    },
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.updateUser,
    async ({ body, request }) => {
      const user = await findUser(body.username);
      const patch: UserPatch = {
        ...(body.password !== undefined
          ? { password_hash: await hashPassword(body.password) }
          : {}),
        ...(body.nickname !== undefined ? { nickname: body.nickname } : {}),
        ...(body.templateIds !== undefined ? { template_ids: [...new Set(body.templateIds)] } : {}),
        ...(body.functionalLevel !== undefined ? { functional_level: body.functionalLevel } : {}),
        ...(body.status !== undefined ? { status: body.status } : {}),
        ...(body.homePageUrl !== undefined ? { home_page_url: body.homePageUrl } : {}),
        ...(body.disabled !== undefined ? { disabled: body.disabled } : {}),
      };
      if (Object.keys(patch).length === 0) throw badRequest('没有要修改的内容');
      return updateAudited(request, user, patch, 'user.update');
    },
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.disableUser,
    async ({ body, request }) =>
      updateAudited(request, await findUser(body.username), { disabled: true }, 'user.disable'),
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.grantQuota,
    async ({ body, request }) => {
      const user = await findUser(body.username);
      const fields = QUOTA_FIELDS[body.type];
      if (body.reward && fields.reward === null)
        throw badRequest(`额度类型 ${body.type} 没有奖励次数`);
      if (body.merge && fields.merge === null)
        throw badRequest(`额度类型 ${body.type} 没有合成次数`);
      if (!body.gen && !body.reward && !body.merge)
        throw badRequest('请至少给出生成、奖励或合成次数之一');
      const before = await app.quotaService.counts(user.id, body.type);
      const after = await app.quotaService.grant(user.id, body.type, body);
      await app.audit.record({
        actor: actorOf(request),
        action: 'quota.grant',
        target: `user:${user.username}`,
        details: {
          type: body.type,
          delta: { gen: body.gen, reward: body.reward, merge: body.merge },
          before,
          after,
        },
      });
      return { username: user.username, type: body.type, ...after };
    },
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.publishNotice,
    async ({ body, request }) => {
      const notice = await app.notices.publish({
        title: body.title,
        content: body.content,
        categoryName: body.category ?? DEFAULT_NOTICE_CATEGORY,
      });
      await app.audit.record({
        actor: actorOf(request),
        action: 'notice.publish',
        target: `notice:${notice.id}`,
        details: { title: notice.title, category: notice.categoryName },
      });
      return notice;
    },
    ADMIN,
  );

  defineRoute(
    app,
    adminEndpoints.listAudit,
    async ({ query }) => ({ items: await app.audit.list(query.limit ?? 50) }),
    ADMIN,
  );
}

/** The account as the audit log shows it: what ops can change, never the password hash. */
function auditView(user: UserRecord) {
  return {
    nickname: user.nickname,
    status: user.status,
    functionalLevel: user.functional_level,
    templateIds: user.template_ids,
    homePageUrl: user.home_page_url,
    disabled: user.disabled,
  };
}
