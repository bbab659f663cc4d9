import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect } from '@jest/globals';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { buildApp } from '../../src/app';
import { DEFAULTS, type AppConfig } from '../../src/config';
import { openDatabase } from '../../src/db/connect';
import { openEmbeddedDatabase, type EmbeddedDatabase } from '../../src/db/embedded';
import type { OpsState } from '../../src/ops/plugin';
import type { Database } from '../../src/db/schema';

/** True when this run's tests use PostgreSQL (TEST_DATABASE_URL), false on PGlite. */
export const onPostgres = Boolean(process.env.KOL_TEST_DATABASE_URL);

/**
 * On PGlite, each test file has an embedded database of its own, in this process as in
 * `pnpm start` (src/db/embedded.ts), opened at its first use from the dump global-setup.ts made
 * (no initdb per file) and shared by the apps of the file. On PostgreSQL, each file works in a
 * schema of its own, dropped when the file ends, so files do not see each other's rows and
 * reruns against a persistent PostgreSQL start clean.
 */
let embedded: Promise<EmbeddedDatabase> | null = null;
let fileDatabaseClosed = false;
const fileDatabase: EmbeddedDatabase = {
  async exclusive(work) {
    if (fileDatabaseClosed) {
      // Something of an app of this file wrote after the file ended (a background write the
      // app's close did not wait for). Its rejection had nobody to catch it and killed the
      // whole PGlite run in CI, with no name of the file. So it is named here, on stderr with
      // the caller's stack, and the statement is never answered: the run goes on.
      process.stderr.write(
        `${new Error(`a statement after ${path.basename(expect.getState().testPath ?? 'a test file')} closed its database`).stack}\n`,
      );
      return new Promise<never>(() => {});
    }
    embedded ??= openEmbeddedDatabase(null, {
      loadDataDir: new Blob([readFileSync(requiredEnv('KOL_TEST_PGLITE_DUMP'))]),
    });
    return (await embedded).exclusive(work);
  },
  async close() {
    fileDatabaseClosed = true;
    await (await embedded)?.close();
  },
};

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest (global-setup.ts)`);
  return value;
}

/** The database of this test file, as AppConfig gives it. */
export function testDatabase(): AppConfig['database'] {
  return onPostgres ? { url: requiredEnv('KOL_TEST_DATABASE_URL') } : { embedded: fileDatabase };
}

const schema = `t_${randomBytes(6).toString('hex')}`;
/** Schemas made in this file (PostgreSQL), dropped at its end. */
const schemas = new Set<string>();

/**
 * The schema an app of this file works in: `name` when a test asks for one; else the file's
 * own on PostgreSQL and the default one on PGlite (the file's database is its own there).
 */
function fileSchema(name?: string): string | undefined {
  const chosen = name ?? (onPostgres ? schema : undefined);
  if (chosen && onPostgres) schemas.add(chosen);
  return chosen;
}

/**
 * A kysely of this file's database outside any app (migration tests), in `name`'s schema on
 * PostgreSQL. Closed by the caller.
 */
export async function openTestDatabase(
  name: string,
): Promise<{ db: Kysely<Database>; close(): Promise<void> }> {
  return openDatabase({ database: testDatabase(), databaseSchema: fileSchema(name) }, () => {});
}

/** Files of this test file (release store, uploads, a fake host build), removed at the end. */
let dataDir: string | null = null;

export function testDataDir(): string {
  if (dataDir) return dataDir;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'kol-test-'));
  // The built-in library (music, background loops) is the same for every file: one folder for
  // the run (global-setup.ts). Each item is written to a temporary name and renamed, so files
  // generating the same one at once do not see half of it.
  const library = process.env.KOL_TEST_LIBRARY_DIR;
  if (library) {
    mkdirSync(path.join(dataDir, 'media'), { recursive: true });
    symlinkSync(library, path.join(dataDir, 'media', 'library'), 'dir');
  }
  return dataDir;
}

/** Apps of this file: closed (again: a second close does nothing) before the data goes. */
const openApps = new Set<FastifyInstance>();

afterAll(async () => {
  // Whatever order jest runs the afterAll hooks in, no app (and no job of its queue) may
  // outlive its database: a job finishing after the drop would fail the file.
  for (const app of openApps) await app.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (!onPostgres) {
    await fileDatabase.close();
    return;
  }
  if (schemas.size === 0) return;
  const { db, close } = await openDatabase({ database: testDatabase() }, () => {});
  try {
    for (const name of schemas) await sql.raw(`DROP SCHEMA IF EXISTS ${name} CASCADE`).execute(db);
  } finally {
    await close();
  }
});

export const ADMIN_TOKEN = 'test-admin-token';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  const databaseSchema = fileSchema(overrides.databaseSchema);
  return {
    database: testDatabase(),
    ...(databaseSchema ? { databaseSchema } : {}),
    ssoHosts: [],
    ssoServerUrl: null,
    ssoTimeoutMs: 2_000,
    adminToken: ADMIN_TOKEN,
    trustProxy: false,
    seedDemo: false,
    sessionTtlMs: DEFAULTS.sessionTtlMs,
    sessionCacheMs: DEFAULTS.sessionCacheMs,
    loginLimit: { ...DEFAULTS.loginLimit },
    bodyLimitBytes: DEFAULTS.bodyLimitBytes,
    releasesDir: path.join(testDataDir(), 'releases'),
    uploadsDir: path.join(testDataDir(), 'uploads'),
    mediaDir: path.join(testDataDir(), 'media'),
    // No host build unless a test makes one there.
    hostDistDir: path.join(testDataDir(), 'host-dist'),
    autoPublishFrom: null,
    contact: {
      title: DEFAULTS.contact.title,
      lines: DEFAULTS.contact.lines.map((l) => ({ ...l })),
    },
    logLevel: 'silent',
    ...overrides,
  };
}

export interface TestApp {
  app: FastifyInstance;
  /** Log lines written so far (only when built with `captureLogs`). */
  logs: string[];
}

/** Builds the app against the test database; close it with `app.close()` in afterAll. */
export async function createTestApp(
  overrides: Partial<AppConfig> = {},
  options: { captureLogs?: boolean; ops?: OpsState } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const config = testConfig(options.captureLogs ? { logLevel: 'info', ...overrides } : overrides);
  const app = await buildApp(config, {
    ...(options.captureLogs ? { logStream } : {}),
    ...(options.ops ? { ops: options.ops } : {}),
  });
  openApps.add(app);
  return { app, logs };
}

/** Headers every browser call of the SDK sends. */
export const PC = { platform: 'pc' } as const;

export const uniqueName = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'kol_session');
  if (!cookie)
    throw new Error(`no session cookie in answer ${response.statusCode} ${response.body}`);
  return cookie.value;
}

/** Creates a user through the admin API and answers its username. */
export async function createUser(
  app: FastifyInstance,
  fields: {
    username?: string;
    password?: string;
    templateIds?: number[];
    status?: number;
    functionalLevel?: number;
  } = {},
): Promise<{ username: string; password: string }> {
  const username = fields.username ?? uniqueName('user');
  const password = fields.password ?? 'secret-password';
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/users/create',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: {
      username,
      password,
      templateIds: fields.templateIds,
      status: fields.status,
      functionalLevel: fields.functionalLevel,
    },
  });
  if (response.statusCode !== 200) throw new Error(`createUser: ${response.body}`);
  return { username, password };
}

/** Logs in and answers the session cookie value. */
export async function login(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers: PC,
    payload: { username, password },
  });
  return sessionCookie(response);
}

export const body = (response: LightMyRequestResponse) =>
  response.json<{ code: number; msg: string; data: unknown }>();
