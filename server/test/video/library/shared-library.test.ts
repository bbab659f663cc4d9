import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { MediaStore } from '../../../src/storage';
import {
  BUILTIN_MATERIALS,
  ensureMaterial,
  ensureMaterialCover,
  materialFileNames,
} from '../../../src/video/library/materials';
import {
  AMBIENT_TRACKS,
  ambientFileName,
  ensureAmbientTrack,
} from '../../../src/video/library/music/ambient';
import { startS3Server, storesOn, type TestS3Server } from '../../helpers/s3-server';

// A built-in track is synthesised by real ffmpeg.
jest.setTimeout(120_000);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'kol-shared-library-'));
let s3: TestS3Server;
let store: MediaStore;

beforeAll(async () => {
  s3 = await startS3Server();
  store = (await storesOn(s3, path.join(scratch, 'store'))).media;
});
afterAll(async () => {
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** A machine's own media folder, where its library is kept. */
const mediaDirOf = (machine: string) => path.join(scratch, machine, 'media');

describe('the built-in library shared through an object store', () => {
  it('puts a track one process made into the store, and another process takes it from there', async () => {
    const [made, taken] = AMBIENT_TRACKS;
    if (!made || !taken) throw new Error('two built-in tracks expected');
    const a = await ensureAmbientTrack(path.join(mediaDirOf('a'), 'music'), made.id, {}, store);
    const stored = await store.stat(`library/music/${ambientFileName(made)}`);
    expect(stored?.size).toBe(readFileSync(a).length);

    // The store already has this one (another machine made it): taken, not made again. The
    // bytes say which: these are not what ffmpeg writes.
    await store.putBytes(`library/music/${ambientFileName(taken)}`, 'made elsewhere');
    const b = await ensureAmbientTrack(path.join(mediaDirOf('b'), 'music'), taken.id, {}, store);
    expect(readFileSync(b, 'utf8')).toBe('made elsewhere');
  });

  it('shares a background loop and its cover the same way', async () => {
    const [material] = BUILTIN_MATERIALS;
    if (!material) throw new Error('a built-in material expected');
    const names = materialFileNames(material);
    const cover = await ensureMaterialCover(mediaDirOf('a'), material, {}, store);
    expect((await store.stat(`library/materials/${names.cover}`))?.size).toBe(
      readFileSync(cover).length,
    );

    await store.putBytes(`library/materials/${names.video}`, 'a loop made elsewhere');
    const onB = await ensureMaterial(mediaDirOf('b'), material, {}, store);
    expect(readFileSync(onB.video, 'utf8')).toBe('a loop made elsewhere');
    // The cover comes from the store too: B draws nothing.
    expect(readFileSync(onB.cover)).toEqual(readFileSync(cover));
  });
});
