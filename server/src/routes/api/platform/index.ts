import type { FastifyInstance } from 'fastify';
import { platformEndpoints } from '@kol/shared-sdk/contracts';
import { tooManyRequests } from '../../../http/api-error';
import { FixedWindowLimiter } from '../../../http/fixed-window';
import { SESSION_COOKIE } from '../../../plugins/app/auth';
import { defineRoute } from '../../define-route';

/** A page that keeps failing reports a few times a minute at most; more is a loop or abuse. */
const FAILURE_REPORTS_PER_MINUTE = 30;

/** What the shell reads before it draws anything: configuration and the remote registry. */
export default async function platformRoutes(app: FastifyInstance) {
  const failureLimiter = new FixedWindowLimiter(FAILURE_REPORTS_PER_MINUTE, 60_000);

  defineRoute(app, platformEndpoints.config, async () => ({
    ssoHosts: app.config.ssoHosts,
    contact: app.config.contact,
    remoteOverrides: app.config.remoteOverrides ?? false,
  }));

  defineRoute(app, platformEndpoints.remotes, async ({ reply }) => {
    // A rollback must reach the next page load: nobody may keep an old registry.
    reply.header('cache-control', 'no-cache');
    return app.releases.registry();
  });

  defineRoute(app, platformEndpoints.reportRemoteFailure, async ({ body, request, reply }) => {
    if (!failureLimiter.allow(request.ip)) throw tooManyRequests('上报过于频繁，请稍后再试');
    // A failure may happen before sign-in (the login page loads remotes too): the user is
    // recorded when there is one, and the report is taken either way.
    const user = request.cookies[SESSION_COOKIE]
      ? await app.auth.requireUser(request, reply).catch(() => null)
      : null;
    await app.releases.reportFailure(body, {
      userAgent: (request.headers['user-agent'] ?? '').slice(0, 500),
      userId: user?.id ?? null,
    });
    return null;
  });
}
