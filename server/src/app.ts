import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppConfig } from './config';
import cookiePlugin from './plugins/external/cookie';
import swaggerPlugin from './plugins/external/swagger';
import authPlugin from './plugins/app/auth';
import compressionPlugin from './plugins/app/compression';
import databasePlugin from './plugins/app/database';
import errorsPlugin from './plugins/app/errors';
import idempotencyPlugin from './plugins/app/idempotency';
import inputPlugin from './plugins/app/input';
import quotasPlugin from './plugins/app/quotas';
import releasesPlugin from './plugins/app/releases';
import storagePlugin from './plugins/app/storage';
import repositoriesPlugin from './plugins/app/repositories';
import seedPlugin from './plugins/app/seed';
import healthRoutes from './routes/healthz';
import opsPlugin, { type OpsState } from './ops/plugin';
import opsRoutes from './routes/ops';
import adminRoutes from './routes/api/admin/index';
import fileRoutes from './routes/api/file/index';
import platformRoutes from './routes/api/platform/index';
import hostRoutes from './routes/host';
import remoteFileRoutes from './routes/remotes';
import uploadFileRoutes from './routes/uploads';
import mediaFileRoutes from './routes/media';
import editRoutes from './routes/api/edit';
import noticeRoutes from './routes/api/notice/index';
import ssoRoutes from './routes/api/sso/index';
import userRoutes from './routes/api/user/index';
import videoRoutes from './routes/api/video/index';
import videoCatalogRoutes from './routes/api/video/catalog';
import videoProgressRoutes from './routes/api/video/progress-stream';
import videoImageRoutes from './routes/api/video/images';
import videoAnimeRoutes from './routes/api/video/anime';
import videoConvertRoutes from './routes/api/video/convert';
import videoExportRoutes from './routes/api/video/export';
import roleRoutes from './routes/api/role/index';
import libraryRoutes from './routes/api/library/index';
import loraRoutes from './routes/api/lora/index';
import versionRoutes from './routes/api/version/index';
import cutVideoRoutes from './routes/api/cut_video/index';
import videoEditRoutes from './routes/api/video_edit/index';
import writingRoutes from './routes/api/writing/index';
import providersPlugin from './providers/plugin';
import writingPlugin from './writing/plugin';
import videoTasksPlugin from './tasks/plugin';
import videoPlugin from './video/plugin';
import seriesPlugin from './series/plugin';
import seriesRoutes from './routes/api/series/index';
import seriesProgressRoutes from './routes/api/series/progress-stream';

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
  }
}

export interface BuildOptions {
  /** Where logs go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  /** The metrics and readiness to use (server.ts's, which its ops listener shows); new ones otherwise. */
  ops?: OpsState;
}

/**
 * Builds the whole API: external plugins, then app plugins, then routes (fastify/demo order).
 * Plugins and routes are imported by name rather than autoloaded from folders, so the same
 * code runs under tsx (ESM) and jest (CommonJS) and the compiler sees every file.
 */
export async function buildApp(
  config: AppConfig,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    // Unique across processes, so a request id from a user's message finds one log line.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    // Opening the embedded database and migrating it was seen to take over fastify's 10 s on a
    // 2-core machine busy with other work; a plugin that hangs still fails, after two minutes.
    pluginTimeout: 120_000,
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // First, so their hooks cover every route registered after them (the docs too).
  await app.register(opsPlugin, { ops: options.ops });
  await app.register(compressionPlugin);
  await app.register(cookiePlugin);
  await app.register(swaggerPlugin);

  await app.register(errorsPlugin);
  await app.register(inputPlugin);
  await app.register(databasePlugin);
  await app.register(repositoriesPlugin);
  await app.register(storagePlugin);
  await app.register(authPlugin);
  await app.register(idempotencyPlugin);
  await app.register(quotasPlugin);
  await app.register(seedPlugin);
  await app.register(releasesPlugin);
  await app.register(providersPlugin);
  await app.register(writingPlugin);
  await app.register(videoTasksPlugin);
  await app.register(videoPlugin);
  await app.register(seriesPlugin);

  await app.register(healthRoutes);
  await app.register(opsRoutes);
  await app.register(userRoutes);
  await app.register(ssoRoutes);
  await app.register(noticeRoutes);
  await app.register(adminRoutes);
  await app.register(platformRoutes);
  await app.register(fileRoutes);
  await app.register(writingRoutes);
  await app.register(videoRoutes);
  await app.register(videoCatalogRoutes);
  await app.register(videoProgressRoutes);
  await app.register(videoImageRoutes);
  await app.register(videoAnimeRoutes);
  await app.register(videoConvertRoutes);
  await app.register(videoExportRoutes);
  await app.register(editRoutes);
  await app.register(roleRoutes);
  await app.register(libraryRoutes);
  await app.register(loraRoutes);
  await app.register(versionRoutes);
  await app.register(cutVideoRoutes);
  await app.register(videoEditRoutes);
  await app.register(seriesRoutes);
  await app.register(seriesProgressRoutes);
  await app.register(remoteFileRoutes);
  await app.register(uploadFileRoutes);
  await app.register(mediaFileRoutes);
  // Last: the catch-all GET that serves the host shell and its page URLs.
  await app.register(hostRoutes);

  await app.ready();
  return app;
}
