import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll } from '@jest/globals';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../src/app';
import { DEFAULTS, type AppConfig } from '../../src/config';

export function testDatabaseUrl(): string {
  const url = process.env.KOL_TEST_DATABASE_URL;
  if (!url)
    throw new Error(
      'KOL_TEST_DATABASE_URL is not set: run the tests through jest (global-setup.ts)',
    );
  return url;
}

/**
 * Each test file works in a schema of its own, dropped when the file ends, so files do not see
 * each other's rows and reruns against a persistent PostgreSQL start clean.
 */
const schema = `t_${randomBytes(6).toString('hex')}`;
let schemaUsed = false;
/** Files of this test file (release store, uploads, a fake host build), removed at the end. */
let dataDir: string | null = null;

export function testDataDir(): string {
  dataDir ??= mkdtempSync(path.join(os.tmpdir(), 'kol-test-'));
  return dataDir;
}

/** Apps of this file: closed (again: a second close does nothing) before the schema is dropped. */
const openApps = new Set<FastifyInstance>();

afterAll(async () => {
  // Whatever order jest runs the afterAll hooks in, no app (and no job of its queue) may
  // outlive its schema: a job finishing after the drop would fail the file.
  for (const app of openApps) await app.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (!schemaUsed) return;
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    // PGlite is one session: leave its search_path as the next file expects to find it.
    await client.query('SET search_path TO public');
  } finally {
    await client.end();
  }
});

export const ADMIN_TOKEN = 'test-admin-token';

export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  schemaUsed = true;
  return {
    database: { url: testDatabaseUrl() },
    databaseSchema: schema,
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
  options: { captureLogs?: boolean } = {},
): Promise<TestApp> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      logs.push(chunk.toString());
      callback();
    },
  });
  const config = testConfig(options.captureLogs ? { logLevel: 'info', ...overrides } : overrides);
  const app = await buildApp(config, options.captureLogs ? { logStream } : {});
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
