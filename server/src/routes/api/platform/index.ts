import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { platformEndpoints } from '@kol/shared-sdk/contracts';
import { tooManyRequests } from '../../../http/api-error';
import { FixedWindowLimiter } from '../../../http/fixed-window';
import { SESSION_COOKIE } from '../../../plugins/app/auth';
import { defineRoute } from '../../define-route';

/** A page that keeps failing reports a few times a minute at most; more is a loop or abuse. */
const FAILURE_REPORTS_PER_MINUTE = 30;

/** What the shell reads before it draws anything: configuration and the remote registry. */
export default async function platformRoutes(app: FastifyInstance) {
  /**
   * The signed-in user when there is one: both calls are made before sign-in too (the login
   * page loads remotes), so a missing or expired session is no error here.
   */
  const userIdOf = async (request: FastifyRequest, reply: FastifyReply) =>
    request.cookies[SESSION_COOKIE]
      ? ((await app.auth.requireUser(request, reply).catch(() => null))?.id ?? null)
      : null;

  const failureLimiter = new FixedWindowLimiter(FAILURE_REPORTS_PER_MINUTE, 60_000);

  defineRoute(app, platformEndpoints.config, async () => ({
    ssoHosts: app.config.ssoHosts,
    contact: app.config.contact,
    remoteOverrides: app.config.remoteOverrides ?? false,
  }));

  defineRoute(app, platformEndpoints.remotes, async ({ request, reply }) => {
    // A rollback must reach the next page load: nobody may keep an old registry. A canary
    // answers each signed-in user their own version: a cache must tell sessions apart.
    reply.header('cache-control', 'no-cache');
    reply.header('vary', 'cookie');
    return app.releases.registry(await userIdOf(request, reply));
  });

  defineRoute(app, platformEndpoints.reportRemoteFailure, async ({ body, request, reply }) => {
    if (!failureLimiter.allow(request.ip)) throw tooManyRequests('上报过于频繁，请稍后再试');
    // A failure may happen before sign-in (the login page loads remotes too): the user is
    // recorded when there is one, and the report is taken either way. Only a signed-in
    // user's report counts towards an automatic rollback.
    await app.releases.reportFailure(body, {
      userAgent: (request.headers['user-agent'] ?? '').slice(0, 500),
      userId: await userIdOf(request, reply),
    });
    return null;
  });
}
