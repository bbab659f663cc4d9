import { existsSync } from 'node:fs';
import path from 'node:path';
import { readEnv, isEnvError } from './env';
import { buildApp } from './app';
import { ensureAdminToken, adminTokenPath } from './admin-token';
import { DEMO_ACCOUNT } from './config';
import { startOpsServer } from './ops/ops-server';
import { apiOps } from './ops/plugin';
import { stopOnSignals } from './ops/shutdown';
import { warmUpLibraries } from './video/library/warm-up';

/** Starts the API: `pnpm --filter @kol/server start`. Everything else lives in app.ts. */
async function main() {
  const env = readEnv();
  const adminToken = env.adminTokenFromEnv ?? (await ensureAdminToken(env.dataDir));
  const embedded = 'embeddedDataDir' in env.app.database;
  const ops = apiOps();
  // Up before the app: while it migrates and releases, /readyz there answers "starting".
  const listen = env.app.ops?.listen ?? null;
  const opsServer = listen ? await startOpsServer(ops, listen) : null;
  const app = await buildApp({ ...env.app, adminToken }, { ops });

  // A rejected promise nobody awaited (a library's background callback, a fire-and-forget
  // write) is logged and the server keeps serving: one task's failure must not stop everyone's
  // work. An exception thrown past every handler leaves the process in an unknown state: it is
  // logged and the process exits, and `pnpm start` starts it again (scripts/start.mjs).
  process.on('unhandledRejection', (reason) => {
    app.log.error({ err: reason }, 'unhandled rejection (the server keeps serving)');
  });
  process.on('uncaughtException', (error) => {
    app.log.fatal({ err: error }, 'uncaught exception: the server stops');
    process.exitCode = 1;
    app.close().finally(() => process.exit(1));
    setTimeout(() => process.exit(1), 5_000).unref();
  });

  // Drained: not ready at once, no new connections, the requests in flight answered, the
  // progress streams told to reconnect elsewhere, running stages finished or given back.
  stopOnSignals(app.log, env.app.ops?.shutdownGraceMs ?? 0, async () => {
    await app.close();
    await opsServer?.close();
  });

  await app.listen({ port: env.port, host: env.host });
  const shownHost = env.host === '0.0.0.0' || env.host === '::' ? '127.0.0.1' : env.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : env.port;
  const base = `http://${shownHost}:${port}`;
  const hostBuilt = existsSync(path.join(env.app.hostDistDir, 'index.html'));
  // Served from its release (in the store, perhaps another machine's) once there is one.
  const hostRelease = await app.releases.hostVersion();
  const { remotes } = await app.releases.registry(null);
  const lines = [
    '',
    `KOL Studio: ${base}/`,
    `API: ${base}/api  (OpenAPI: ${base}/api/docs)`,
    hostRelease
      ? `Front end: host_shell ${hostRelease} (${app.stores.releases.description})`
      : hostBuilt
        ? `Front end: ${env.app.hostDistDir}`
        : `Front end: not built (${env.app.hostDistDir}); run \`pnpm start\` from the repo root, or \`pnpm build\``,
    `Remotes: ${remotes.length > 0 ? remotes.map((r) => `${r.name} ${r.version}`).join(', ') : 'none released'}`,
    ...(opsServer && listen
      ? [`Metrics: http://${listen.host}:${opsServer.port}/metrics (also /readyz, /healthz)`]
      : []),
    `Database: ${embedded ? `embedded PGlite in ${env.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
    env.adminTokenFromEnv
      ? 'Admin token: from KOL_ADMIN_TOKEN'
      : `Admin token: ${adminTokenPath(env.dataDir)}`,
  ];
  if (env.app.seedDemo) {
    lines.push(
      `Demo login: ${DEMO_ACCOUNT.username} / ${DEMO_ACCOUNT.password}${app.seededDemoNow ? ' (just created)' : ''}`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n\n');
  // In the background: the first start makes the built-in music and background loops.
  if (env.app.warmUpLibraries) void warmUpLibraries(env.app.mediaDir, app.log, app.stores.media);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${isEnvError(error) ? 'Configuration error' : 'Start failed'}: ${String(error)}\n`,
  );
  if (!isEnvError(error) && error instanceof Error && error.stack)
    process.stderr.write(error.stack + '\n');
  process.exit(1);
});
