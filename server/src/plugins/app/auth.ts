import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ClientPlatform } from '@kol/shared-sdk/contracts';
import { forbidden, unauthorized } from '../../http/api-error';
import type { UserRecord } from '../../repositories/users';
import { secretsEqual } from '../../security/secrets';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.auth.requireUser` (or the session hook) on routes that need a signed-in user. */
    user: UserRecord | null;
  }
  interface FastifyContextConfig {
    /** Refuse the call unless the `platform` header is present (see the hook below). */
    stateChanging?: boolean;
  }
  interface FastifyInstance {
    auth: {
      requireUser(request: FastifyRequest, reply: FastifyReply): Promise<UserRecord>;
      /**
       * `onRequest` hook of every route that needs a session (see define-route.ts): a call
       * without a valid one is answered 401 before its body is read or its input validated, so
       * an anonymous caller learns nothing about a route's input rules.
       */
      requireSession: onRequestAsyncHookHandler;
      requireAdmin(request: FastifyRequest): Promise<void>;
      startSession(request: FastifyRequest, reply: FastifyReply, user: UserRecord): Promise<void>;
      endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    };
  }
}

export const SESSION_COOKIE = 'kol_session';
const PLATFORMS: readonly string[] = Object.values(ClientPlatform);

export default fp(
  async (app) => {
    const { sessionTtlMs, adminToken } = app.config;
    app.decorateRequest('user', null);

    function setSessionCookie(
      request: FastifyRequest,
      reply: FastifyReply,
      value: string,
      maxAgeMs: number,
    ) {
      reply.setCookie(SESSION_COOKIE, value, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        // request.protocol honours X-Forwarded-Proto only when TRUST_PROXY is set.
        secure: request.protocol === 'https',
        maxAge: Math.floor(maxAgeMs / 1000),
      });
    }

    /**
     * A custom header that a plain cross-site form or image cannot send: every state-changing
     * call must carry it, which together with SameSite=Lax cookies keeps other sites from
     * acting in the user's name.
     */
    app.addHook('onRequest', async (request) => {
      if (!request.routeOptions.config.stateChanging) return;
      const platform = request.headers.platform;
      if (typeof platform !== 'string' || !PLATFORMS.includes(platform)) {
        throw forbidden('请求缺少客户端标识（platform 请求头），已拒绝');
      }
    });

    app.decorate('auth', {
      async requireUser(request: FastifyRequest, reply: FastifyReply): Promise<UserRecord> {
        // Already resolved for this request (by the session hook): one lookup per request.
        if (request.user) return request.user;
        const sessionId = request.cookies[SESSION_COOKIE];
        if (!sessionId) throw unauthorized();
        let found = app.sessionCache.get(sessionId);
        if (!found) {
          found = await app.sessions.findUser(sessionId);
          if (!found) throw unauthorized('登录已过期，请重新登录');
          app.sessionCache.set(sessionId, found.user, found.expiresAt);
        }
        // Sliding sessions: one used in the second half of its life is renewed. Rarely true,
        // so the usual request costs the one query above.
        if (found.expiresAt.getTime() - Date.now() < sessionTtlMs / 2) {
          await app.sessions.extend(sessionId, sessionTtlMs);
          app.sessionCache.forgetSession(sessionId);
          setSessionCookie(request, reply, sessionId, sessionTtlMs);
        }
        request.user = found.user;
        return found.user;
      },

      async requireSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
        await app.auth.requireUser(request, reply);
      },

      async requireAdmin(request: FastifyRequest): Promise<void> {
        const header = request.headers.authorization ?? '';
        const token = header.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : '';
        if (!adminToken) throw forbidden('管理接口未启用（没有配置管理令牌）');
        if (!token || !secretsEqual(token, adminToken)) throw unauthorized('管理令牌无效');
      },

      async startSession(
        request: FastifyRequest,
        reply: FastifyReply,
        user: UserRecord,
      ): Promise<void> {
        const sessionId = await app.sessions.create(user.id, {
          ttlMs: sessionTtlMs,
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? '',
        });
        setSessionCookie(request, reply, sessionId, sessionTtlMs);
        request.user = user;
      },

      async endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
        const sessionId = request.cookies[SESSION_COOKIE];
        if (sessionId) await app.sessions.delete(sessionId);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        request.user = null;
      },
    });
  },
  { name: 'auth', dependencies: ['repositories'] },
);
