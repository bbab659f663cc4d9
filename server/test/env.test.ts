import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { readEnv } from '../src/env';
import { outputSize } from '../src/video/pipelines/kit/pipeline';
import { findRepoRoot } from '../src/paths';

const NAMES = [
  'CONTACT_TITLE',
  'CONTACT_LINES',
  'AUTO_PUBLISH_REMOTES',
  'DATABASE_URL',
  'HOST_DIST_DIR',
  'DATA_DIR',
  'REMOTE_OVERRIDES',
  'NODE_ENV',
  'MEDIA_STORE',
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
  'S3_PREFIX',
  'VIDEO_TASK_LEASE_MS',
  'VIDEO_RENDER_PERCENT',
  'METRICS_PORT',
  'METRICS_HOST',
  'SHUTDOWN_GRACE_SECONDS',
  'REMOTE_AUTO_ROLLBACK_USERS',
  'REMOTE_AUTO_ROLLBACK_WINDOW_MS',
  'REMOTE_AUTO_ROLLBACK_SHARE',
  'VIDEO_BASE_URL',
  'VIDEO_SECONDS',
  'VIDEO_SIZE',
  'COMFYUI_VIDEO_URL',
  'IMAGE_CONCURRENCY',
  'IMAGE_RETRIES',
  'VIDEO_CONCURRENCY',
] as const;
const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));

afterEach(() => {
  for (const name of NAMES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

function withEnv(values: Partial<Record<(typeof NAMES)[number], string>>) {
  for (const name of NAMES) delete process.env[name];
  Object.assign(process.env, values);
  return readEnv().app;
}

describe('environment of the platform features', () => {
  it('has a Chinese contact title, no contact lines unless configured, and the workspace folders', () => {
    const app = withEnv({ DATA_DIR: '/tmp/kol-env-test' });
    expect(app.contact.title).toBe('联系我们');
    expect(app.contact.lines).toEqual([]);
    expect(app.releasesDir).toBe('/tmp/kol-env-test/releases');
    expect(app.uploadsDir).toBe('/tmp/kol-env-test/uploads');
    expect(app.hostDistDir).toBe(path.join(findRepoRoot(), 'host-shell', 'dist'));
    expect(app.autoPublishFrom).toBe(findRepoRoot());
  });

  it('reads the contact lines, values with colons included', () => {
    const app = withEnv({
      CONTACT_TITLE: '商务合作',
      CONTACT_LINES: '电话: 400-000-0000; 网址：https://example.com/kol ;',
    });
    expect(app.contact).toEqual({
      title: '商务合作',
      lines: [
        { label: '电话', value: '400-000-0000' },
        { label: '网址', value: 'https://example.com/kol' },
      ],
    });
    expect(() => withEnv({ CONTACT_LINES: 'no colon here' })).toThrow(/CONTACT_LINES/);
  });

  it('releases the workspace builds at start only for the embedded setup unless told', () => {
    expect(withEnv({ DATABASE_URL: 'postgres://db/kol' }).autoPublishFrom).toBeNull();
    expect(
      withEnv({ DATABASE_URL: 'postgres://db/kol', AUTO_PUBLISH_REMOTES: 'true' }).autoPublishFrom,
    ).toBe(findRepoRoot());
    expect(withEnv({ AUTO_PUBLISH_REMOTES: 'off' }).autoPublishFrom).toBeNull();
    expect(withEnv({ HOST_DIST_DIR: '/srv/host' }).hostDistDir).toBe('/srv/host');
  });

  it('allows remote overrides on the embedded setup only, unless told', () => {
    expect(withEnv({}).remoteOverrides).toBe(true);
    expect(withEnv({ NODE_ENV: 'production' }).remoteOverrides).toBe(false);
    expect(withEnv({ DATABASE_URL: 'postgres://db/kol' }).remoteOverrides).toBe(false);
    expect(withEnv({ NODE_ENV: 'production', REMOTE_OVERRIDES: 'on' }).remoteOverrides).toBe(true);
    expect(withEnv({ REMOTE_OVERRIDES: 'off' }).remoteOverrides).toBe(false);
    expect(() => withEnv({ REMOTE_OVERRIDES: 'maybe' })).toThrow(/REMOTE_OVERRIDES/);
  });

  it('keeps media in the data folders unless MEDIA_STORE=s3 names a bucket', () => {
    const local = withEnv({ DATA_DIR: '/tmp/kol-env-test' });
    expect(local.mediaStore).toBeNull();
    expect(local.mediaDir).toBe('/tmp/kol-env-test/media');
    expect(() => withEnv({ S3_BUCKET: 'media' })).toThrow(
      'S3_BUCKET set but MEDIA_STORE is not s3',
    );
    expect(() => withEnv({ MEDIA_STORE: 's3' })).toThrow('MEDIA_STORE=s3 needs S3_BUCKET');
    expect(() => withEnv({ MEDIA_STORE: 'ftp' })).toThrow('MEDIA_STORE must be local or s3');
    expect(() =>
      withEnv({ MEDIA_STORE: 's3', S3_BUCKET: 'kol-media', S3_ACCESS_KEY_ID: 'key' }),
    ).toThrow('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');

    const s3 = withEnv({
      DATA_DIR: '/tmp/kol-env-test',
      MEDIA_STORE: 's3',
      S3_BUCKET: 'kol-media',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      S3_PREFIX: '/studio/',
    });
    expect(s3.mediaStore).toEqual({
      bucket: 'kol-media',
      endpoint: 'http://127.0.0.1:9000',
      region: 'us-east-1',
      credentials: { accessKeyId: 'key', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'studio/',
    });
    // The folders only cache what the process works on, apart from the local store's.
    expect(s3.mediaDir).toBe('/tmp/kol-env-test/cache/media');
    expect(s3.uploadsDir).toBe('/tmp/kol-env-test/cache/uploads');
    expect(s3.releasesDir).toBe('/tmp/kol-env-test/cache/releases');
    // The copies of stored keys it reads go apart from those working folders (swept).
    expect(s3.storeCacheDir).toBe('/tmp/kol-env-test/cache/copies');
    expect(local.storeCacheDir).toBeUndefined();
  });

  it('reads when the server rolls a failing release back on its own', () => {
    expect(withEnv({}).remoteAutoRollback).toEqual({
      minUsers: 3,
      windowMs: 600_000,
      sharePercent: 20,
    });
    expect(
      withEnv({
        REMOTE_AUTO_ROLLBACK_USERS: '5',
        REMOTE_AUTO_ROLLBACK_WINDOW_MS: '300000',
        REMOTE_AUTO_ROLLBACK_SHARE: '0',
      }).remoteAutoRollback,
    ).toEqual({ minUsers: 5, windowMs: 300_000, sharePercent: 0 });
    expect(withEnv({ REMOTE_AUTO_ROLLBACK_SHARE: '100' }).remoteAutoRollback?.sharePercent).toBe(
      100,
    );
    for (const bad of ['101', '-1', '12.5', '20%']) {
      expect(() => withEnv({ REMOTE_AUTO_ROLLBACK_SHARE: bad })).toThrow(
        `REMOTE_AUTO_ROLLBACK_SHARE must be an integer from 0 to 100, got "${bad}"`,
      );
    }
    expect(() => withEnv({ REMOTE_AUTO_ROLLBACK_USERS: 'three' })).toThrow(
      'REMOTE_AUTO_ROLLBACK_USERS must be an integer from 0 to 100000',
    );
  });

  it('reads how long a silent video worker counts as alive', () => {
    expect(withEnv({}).videoTasks?.leaseMs).toBe(30_000);
    expect(withEnv({ VIDEO_TASK_LEASE_MS: '5000' }).videoTasks?.leaseMs).toBe(5000);
    expect(() => withEnv({ VIDEO_TASK_LEASE_MS: '10' })).toThrow(
      'VIDEO_TASK_LEASE_MS must be an integer from 2000 to 600000',
    );
  });

  it('renders videos at full size unless VIDEO_RENDER_PERCENT says less', () => {
    expect(withEnv({}).videoTasks?.renderPercent).toBe(100);
    const half = withEnv({ VIDEO_RENDER_PERCENT: '50' }).videoTasks?.renderPercent;
    expect(half).toBe(50);
    expect(outputSize({}, '9:16')).toEqual({ width: 1080, height: 1920 });
    expect(outputSize({ renderPercent: half }, '9:16')).toEqual({ width: 540, height: 960 });
    expect(outputSize({ renderPercent: half }, '16:9')).toEqual({ width: 960, height: 540 });
    // Even sides whatever the share (x264's 4:2:0 needs them); a given size wins.
    expect(outputSize({ renderPercent: 33 }, '9:16')).toEqual({ width: 356, height: 634 });
    expect(
      outputSize({ renderSize: { width: 90, height: 160 }, renderPercent: 50 }, '9:16'),
    ).toEqual({ width: 90, height: 160 });
    expect(() => withEnv({ VIDEO_RENDER_PERCENT: '10' })).toThrow(
      'VIDEO_RENDER_PERCENT must be an integer from 25 to 100',
    );
  });

  it('opens no metrics listener unless METRICS_PORT says where, and drains within 25 s by default', () => {
    expect(withEnv({}).ops).toEqual({ listen: null, shutdownGraceMs: 25_000 });
    expect(withEnv({}).videoTasks?.stopGraceMs).toBe(25_000);
    const ops = withEnv({ METRICS_PORT: '9464', SHUTDOWN_GRACE_SECONDS: '5' }).ops;
    expect(ops).toEqual({ listen: { host: '127.0.0.1', port: 9464 }, shutdownGraceMs: 5_000 });
    expect(withEnv({ METRICS_PORT: '0', METRICS_HOST: '0.0.0.0' }).ops?.listen).toEqual({
      host: '0.0.0.0',
      port: 0,
    });
    expect(() => withEnv({ METRICS_PORT: 'x' })).toThrow(
      'METRICS_PORT must be an integer from 0 to 65535',
    );
    expect(() => withEnv({ SHUTDOWN_GRACE_SECONDS: '-1' })).toThrow(
      'SHUTDOWN_GRACE_SECONDS must be an integer from 0 to 3600',
    );
  });

  it('turns motion on with a videos API or a ComfyUI image-to-video server, never both', () => {
    expect(withEnv({}).videos).toBeNull();
    expect(withEnv({ VIDEO_BASE_URL: 'https://api.example.com/v1' }).videos).toMatchObject({
      kind: 'openai',
      model: 'sora-2',
      portraitSize: '720x1280',
      seconds: [4, 8, 12],
    });
    expect(
      withEnv({ VIDEO_BASE_URL: 'https://api.example.com/v1', VIDEO_SECONDS: '10, 5,5' }).videos,
    ).toMatchObject({ seconds: [5, 10] });
    expect(withEnv({ COMFYUI_VIDEO_URL: 'http://127.0.0.1:8188' }).videos).toMatchObject({
      kind: 'comfyui',
      workflowPath: null,
      fps: 24,
      maxSeconds: 5,
    });
    expect(() =>
      withEnv({ VIDEO_BASE_URL: 'https://a/v1', COMFYUI_VIDEO_URL: 'http://127.0.0.1:8188' }),
    ).toThrow('set VIDEO_BASE_URL or COMFYUI_VIDEO_URL, not both');
    expect(() => withEnv({ VIDEO_BASE_URL: 'https://a/v1', VIDEO_SECONDS: '4,x' })).toThrow(
      /VIDEO_SECONDS/,
    );
    expect(() => withEnv({ VIDEO_BASE_URL: 'https://a/v1', VIDEO_SIZE: 'big' })).toThrow(
      /VIDEO_SIZE/,
    );
  });

  it('limits the outside services across processes, by default and as set', () => {
    expect(withEnv({}).providerLimits).toEqual({
      images: { concurrency: 4, retries: 2 },
      videos: { concurrency: 2 },
    });
    expect(
      withEnv({ IMAGE_CONCURRENCY: '1', IMAGE_RETRIES: '0', VIDEO_CONCURRENCY: '8' })
        .providerLimits,
    ).toEqual({ images: { concurrency: 1, retries: 0 }, videos: { concurrency: 8 } });
    expect(() => withEnv({ IMAGE_CONCURRENCY: '0' })).toThrow(/IMAGE_CONCURRENCY/);
  });
});
