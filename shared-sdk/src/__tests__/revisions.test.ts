import { describe, expect, it } from '@jest/globals';
import { ApiError } from '../http/errors';
import { ErrorCode } from '../error-codes';
import { isStaleEdit, mergeEdits, saveOnRevision, StaleEditError } from '../revisions';

const shot = (caption: string, imagePrompt = caption, imageUrl = '') => ({
  caption,
  imagePrompt,
  imageUrl,
});

const stale = () =>
  new ApiError('business', '该作品已在其他页面修改', ErrorCode.staleRevision, 412);

describe('mergeEdits', () => {
  it('keeps a prompt edited here and the pictures the server drew meanwhile', () => {
    const base = { shots: [shot('一'), shot('二')] };
    const edited = { shots: [shot('一'), shot('二', '雨中的山门')] };
    const latest = { shots: [shot('一', '一', '/media/a.jpg'), shot('二', '二', '/media/b.jpg')] };
    expect(mergeEdits(base, edited, latest)).toEqual({
      value: {
        shots: [shot('一', '一', '/media/a.jpg'), shot('二', '雨中的山门', '/media/b.jpg')],
      },
      conflicts: [],
    });
  });

  it('names a part both sides changed, and keeps the person’s version of it', () => {
    const base = { title: '旧', text: '正文' };
    const merged = mergeEdits(
      base,
      { title: '我的', text: '正文' },
      { title: '别处', text: '新正文' },
    );
    expect(merged).toEqual({ value: { title: '我的', text: '新正文' }, conflicts: ['title'] });
  });

  it('treats lists of another length as one part', () => {
    const base = { shots: [shot('一')] };
    const edited = { shots: [shot('一'), shot('二')] };
    const latest = { shots: [shot('一', '一', '/media/a.jpg')] };
    expect(mergeEdits(base, edited, latest).conflicts).toEqual(['shots']);
    // Only one side changed the list: no conflict, that side's list.
    expect(mergeEdits(base, edited, base)).toEqual({ value: edited, conflicts: [] });
  });

  it('sees the same change on both sides as no conflict', () => {
    const merged = mergeEdits({ a: 1 }, { a: 2 }, { a: 2 });
    expect(merged).toEqual({ value: { a: 2 }, conflicts: [] });
  });
});

describe('saveOnRevision', () => {
  it('saves on the newest revision after merging when the parts differ', async () => {
    const saves: Array<[unknown, number]> = [];
    const result = await saveOnRevision({
      base: { title: '旧', text: '正文' },
      edited: { title: '新', text: '正文' },
      revision: 1,
      save: async (value, revision) => {
        saves.push([value, revision]);
        if (revision === 1) throw stale();
        return 'ok';
      },
      load: async () => ({ value: { title: '旧', text: '别处改的正文' }, revision: 2 }),
    });
    expect(result).toBe('ok');
    expect(saves).toEqual([
      [{ title: '新', text: '正文' }, 1],
      [{ title: '新', text: '别处改的正文' }, 2],
    ]);
  });

  it('throws StaleEditError with the merge when both changed the same part', async () => {
    const attempt = saveOnRevision({
      base: { title: '旧' },
      edited: { title: '我的' },
      revision: 1,
      save: async () => {
        throw stale();
      },
      load: async () => ({ value: { title: '别处' }, revision: 5 }),
    });
    await expect(attempt).rejects.toBeInstanceOf(StaleEditError);
    const error: unknown = await attempt.catch((e: unknown) => e);
    expect(isStaleEdit(error)).toBe(true);
    expect(error).toMatchObject({ merged: { title: '我的' }, revision: 5, conflicts: ['title'] });
  });

  it('knows a stale refusal thrown by another copy of the SDK (a remote’s bundle)', async () => {
    // Module Federation shares the SDK's main entry, not its ui entry: the two hold different
    // ApiError classes, so the check cannot be `instanceof`.
    const foreign = Object.assign(new Error('剪辑数据已在其他页面修改'), {
      name: 'ApiError',
      code: 412,
    });
    const saves: number[] = [];
    await saveOnRevision({
      base: { a: 1 },
      edited: { a: 2 },
      revision: 1,
      save: async (_value, revision) => {
        saves.push(revision);
        if (revision === 1) throw foreign;
        return null;
      },
      load: async () => ({ value: { a: 1 }, revision: 2 }),
    });
    expect(saves).toEqual([1, 2]);
  });

  it('passes on every other failure untouched', async () => {
    const refusal = new ApiError('business', '「标题」不能为空', ErrorCode.badRequest, 400);
    await expect(
      saveOnRevision({
        base: {},
        edited: {},
        revision: 1,
        save: async () => {
          throw refusal;
        },
        load: async () => ({ value: {}, revision: 1 }),
      }),
    ).rejects.toBe(refusal);
  });
});
