import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import {
  musicLibraryDir,
  NO_MUSIC_ID,
  resolveMusic,
} from '../../../src/video/library/music/catalog';
import { UserInputError } from '../../../src/tasks/errors';
import { createTestApp, createUser } from '../../helpers/test-app';

// The built-in tracks themselves are ambient.test.ts (no database).
let app: FastifyInstance;
beforeAll(async () => {
  ({ app } = await createTestApp());
});
afterAll(async () => {
  await app.close();
});

async function newUserId(): Promise<number> {
  const { username } = await createUser(app);
  const user = await app.users.findByUsername(username);
  if (!user) throw new Error('user not created');
  return user.id;
}

describe('resolveMusic', () => {
  it('answers the built-in file, the owner’s uploaded audio, or nothing for 0', async () => {
    const alice = await newUserId();
    const bob = await newUserId();
    const options = {
      repos: app.repos,
      mediaDir: app.config.mediaDir,
      stores: app.stores,
    };
    const builtin = await resolveMusic(options, alice, -2);
    expect(builtin).toBe(path.join(musicLibraryDir(app.config.mediaDir), 'ambient-warm.mp3'));
    expect(await resolveMusic(options, alice, NO_MUSIC_ID)).toBeNull();

    await mkdir(app.config.uploadsDir, { recursive: true });
    await writeFile(path.join(app.config.uploadsDir, 'abc123.mp3'), 'not really audio');
    const { assetId } = await app.uploads.recordMedia(alice, {
      url: '/uploads/abc123.mp3',
      name: '我的歌.mp3',
      kind: 'audio',
      durationMs: 12_000,
    });
    expect(await resolveMusic(options, alice, assetId)).toBe(
      path.join(app.config.uploadsDir, 'abc123.mp3'),
    );
    // Another user's upload, a video upload and an unknown built-in are the user's mistake.
    await expect(resolveMusic(options, bob, assetId)).rejects.toThrow(UserInputError);
    await expect(resolveMusic(options, bob, assetId)).rejects.toThrow(
      '「背景音乐」不存在或不属于你',
    );
    const video = await app.uploads.recordMedia(alice, {
      url: '/uploads/def456.mp4',
      name: 'clip.mp4',
      kind: 'video',
      durationMs: 5_000,
    });
    await expect(resolveMusic(options, alice, video.assetId)).rejects.toThrow(UserInputError);
    await expect(resolveMusic(options, alice, -999)).rejects.toThrow('「背景音乐」不存在');
  });
});
