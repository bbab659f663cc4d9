import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UserStatus } from '@kol/shared-sdk/contracts';
import { ssoEndpoints } from '@kol/shared-sdk/contracts';
import { badRequest, forbidden, upstreamError } from '../../../http/api-error';
import { LOCAL_TICKET_PREFIX } from '../../../repositories/tickets';
import { toUserInfo, type UserRecord } from '../../../repositories/users';
import { CasUnavailableError, validateServiceTicket } from '../../../sso/cas-client';
import { defineRoute } from '../../define-route';

/** The browser page the CAS server sends the user back to, with `?ticket=`. */
const TICKET_PAGE = '/login/ticket';

export default async function ssoRoutes(app: FastifyInstance) {
  const { ssoHosts, ssoServerUrl, ssoTimeoutMs } = app.config;

  /** The CAS server URL when this request came to an official or test hostname. */
  function ssoServerFor(request: FastifyRequest): string {
    const host = request.host.toLowerCase();
    const onSsoHost = ssoHosts.includes(host) || ssoHosts.includes(request.hostname.toLowerCase());
    if (!onSsoHost || !ssoServerUrl) throw forbidden('当前域名未启用单点登录，请使用账号密码登录');
    return ssoServerUrl;
  }

  const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

  defineRoute(app, ssoEndpoints.login, async ({ request }) => {
    const server = ssoServerFor(request);
    return { url: `${server}/login?service=${encodeURIComponent(origin(request) + TICKET_PAGE)}` };
  });

  defineRoute(app, ssoEndpoints.logout, async ({ request }) => {
    const server = ssoServerFor(request);
    return { url: `${server}/logout?service=${encodeURIComponent(origin(request) + '/')}` };
  });

  /** Finds the local user of a CAS login, or creates one that still has to register. */
  async function userFromCas(
    username: string,
    attributes: Record<string, string>,
  ): Promise<UserRecord> {
    const existing = await app.users.findByUsername(username);
    if (existing) return existing;
    const created = await app.users.create({
      username,
      password_hash: null,
      nickname: (attributes.nickname || attributes.displayName || attributes.name || '').slice(
        0,
        32,
      ),
      status: UserStatus.unregistered,
      register_source: 'sso',
    });
    // A concurrent first login of the same user may have created it a moment ago.
    const user = created ?? (await app.users.findByUsername(username));
    if (!user) throw new Error(`could not create SSO user ${username}`);
    return user;
  }

  defineRoute(
    app,
    ssoEndpoints.verify,
    async ({ query, request, reply }) => {
      let user: UserRecord | undefined;
      if (query.ticket.startsWith(LOCAL_TICKET_PREFIX)) {
        const userId = await app.tickets.consume(query.ticket);
        user = userId === undefined ? undefined : await app.users.findById(userId);
        if (!user) {
          app.metrics.signIns.inc({ method: 'sso', outcome: 'refused' });
          throw badRequest('登录票据无效或已过期，请重新登录');
        }
      } else {
        const server = ssoServerFor(request);
        let result;
        try {
          result = await validateServiceTicket({
            serverUrl: server,
            service: origin(request) + TICKET_PAGE,
            ticket: query.ticket,
            timeoutMs: ssoTimeoutMs,
          });
        } catch (error) {
          if (!(error instanceof CasUnavailableError)) throw error;
          request.log.warn({ err: error }, 'CAS ticket validation failed');
          app.metrics.signIns.inc({ method: 'sso', outcome: 'sso_unavailable' });
          throw upstreamError('单点登录服务暂时无法访问，请稍后再试');
        }
        if (!result.ok) {
          request.log.info(
            { casCode: result.code, casMessage: result.message },
            'CAS refused the ticket',
          );
          app.metrics.signIns.inc({ method: 'sso', outcome: 'refused' });
          throw badRequest('登录票据无效或已过期，请重新登录');
        }
        user = await userFromCas(result.user, result.attributes);
      }
      if (user.disabled) {
        app.metrics.signIns.inc({ method: 'sso', outcome: 'disabled' });
        throw forbidden('账号已停用，请联系管理员');
      }
      await app.auth.startSession(request, reply, user);
      app.metrics.signIns.inc({ method: 'sso', outcome: 'success' });
      return toUserInfo(user);
    },
    { stateChanging: true },
  );
}
