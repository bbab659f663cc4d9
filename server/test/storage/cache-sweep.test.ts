import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sweepCopies } from '../../src/storage/cache-sweep';
import { startS3Server, storesOn, type TestS3Server } from '../helpers/s3-server';

const scratch = mkdtempSync(path.join(os.tmpdir(), 'kol-sweep-test-'));
let s3: TestS3Server;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const HOUR = 3600_000;
/** Gives a file a last use `ms` ago. */
const age = (file: string, ms: number) => {
  const when = new Date(Date.now() - ms);
  utimesSync(file, when, when);
};

describe('the sweep of an object store copies', () => {
  it('removes copies unused for longer than the limit and the folders they leave empty', async () => {
    const dir = path.join(scratch, 'copies');
    for (const file of ['uploads/old.png', 'media/7/t1/old.wav', 'media/7/t2/new.wav']) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), 'x');
    }
    age(path.join(dir, 'uploads/old.png'), 7 * HOUR);
    age(path.join(dir, 'media/7/t1/old.wav'), 7 * HOUR);
    age(path.join(dir, 'media/7/t2/new.wav'), 1 * HOUR);

    expect(await sweepCopies(dir, 6 * HOUR)).toBe(2);
    expect(existsSync(path.join(dir, 'uploads/old.png'))).toBe(false);
    expect(existsSync(path.join(dir, 'media/7/t1'))).toBe(false);
    expect(existsSync(path.join(dir, 'media/7/t2/new.wav'))).toBe(true);
    // A folder that does not exist (no copy made yet) is nothing to sweep.
    expect(await sweepCopies(path.join(scratch, 'none'))).toBe(0);
  });

  it('keeps a copy that is used: a hit of `cached` renews it', async () => {
    const { uploads } = await storesOn(s3, path.join(scratch, 'work'));
    const copies = path.join(scratch, 'work', 'copies');
    await uploads.putBytes('often.png', 'picture');
    await uploads.putBytes('once.png', 'picture');
    const often = await uploads.cached('often.png');
    const once = await uploads.cached('once.png');
    if (!often || !once) throw new Error('no copies made');
    expect(path.dirname(often)).toBe(path.join(copies, 'uploads'));
    age(often, 7 * HOUR);
    age(once, 7 * HOUR);
    // Read again: the same copy, not fetched again, its time renewed.
    expect(await uploads.cached('often.png')).toBe(often);
    expect(Date.now() - statSync(often).mtimeMs).toBeLessThan(HOUR);

    expect(await sweepCopies(copies, 6 * HOUR)).toBe(1);
    expect(existsSync(often)).toBe(true);
    expect(existsSync(once)).toBe(false);
    // Swept, it is fetched again at its next use.
    expect(await uploads.cached('once.png')).toBe(once);
  });
});
