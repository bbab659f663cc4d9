import path from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { readEnv } from '../src/env';
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
  it('has Chinese contact defaults and the workspace folders', () => {
    const app = withEnv({ DATA_DIR: '/tmp/kol-env-test' });
    expect(app.contact.title).toBe('联系我们');
    expect(app.contact.lines).toEqual([
      { label: '邮箱', value: 'kol-studio@example.com' },
      { label: '工作时间', value: '工作日 10:00-19:00' },
    ]);
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
});
