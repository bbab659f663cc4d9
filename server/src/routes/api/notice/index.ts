import type { FastifyInstance } from 'fastify';
import { ALL_NOTICE_CATEGORIES, ALL_NOTICES } from '@kol/shared-sdk/contracts';
import { noticeEndpoints } from '@kol/shared-sdk/contracts';
import { notFound } from '../../../http/api-error';
import { defineRoute } from '../../define-route';

export default async function noticeRoutes(app: FastifyInstance) {
  defineRoute(app, noticeEndpoints.list, async ({ query, request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return app.notices.list(user.id, {
      categoryId: query.id === ALL_NOTICE_CATEGORIES ? null : query.id,
      pageIndex: query.pageIndex,
      pageSize: query.pageSize,
    });
  });

  defineRoute(
    app,
    noticeEndpoints.click,
    async ({ query, request, reply }) => {
      const user = await app.auth.requireUser(request, reply);
      if (query.noticeId === ALL_NOTICES) {
        await app.notices.markAllRead(user.id);
      } else {
        if (query.noticeId === 0 || !(await app.notices.exists(query.noticeId)))
          throw notFound('通知不存在');
        await app.notices.markRead(user.id, query.noticeId);
      }
      return { count: await app.notices.unreadCount(user.id) };
    },
    { stateChanging: true },
  );

  defineRoute(app, noticeEndpoints.getNoticeCategory, async ({ request, reply }) => {
    await app.auth.requireUser(request, reply);
    return app.notices.categories();
  });

  defineRoute(app, noticeEndpoints.getNoticeCount, async ({ request, reply }) => {
    const user = await app.auth.requireUser(request, reply);
    return { count: await app.notices.unreadCount(user.id) };
  });
}
