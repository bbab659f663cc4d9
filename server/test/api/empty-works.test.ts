import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { WorkSummary } from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { signedInClient, type Client } from '../writing/helpers';

/**
 * Issue 29: 生成视频 then 取消 left a work with nothing in it, and My copy listed it as
 * 「雾港来信（空）」. No list shows a work with no text and nothing made or chosen; My copy
 * (`withText`) lists texts only; a real draft with content still shows where it belongs.
 */

let app: FastifyInstance;
let client: Client;
let userId: number;
const ids: Record<string, number> = {};

type Page = { items: WorkSummary[]; total: number };

const titles = async (url: string) => {
  const page = (await client.get(url)).data as Page;
  return { titles: page.items.map((w) => w.title).sort(), total: page.total };
};

beforeAll(async () => {
  ({ app } = await createTestApp());
  client = await signedInClient(app);
  userId = ((await client.get('/api/user/current')).data as { userId: number }).userId;
  const make = async (title: string, type: number, text: string) => {
    ids[title] = await app.works.create(userId, { type, title, text });
    return ids[title];
  };
  await make('有文案的解压视频', 1, '深呼吸，放松肩膀。');
  // A market work keeps its text empty and its pitch in the template's fields.
  const market = await make('雾港来信', 4, '');
  await app.works.update(userId, market, {
    settings: { aspect: '9:16', templateId: 1, templateFields: { product: '雾港来信' } },
  });
  await make('空的营销视频', 4, '');
  await make('只有空白的解压视频', 1, '  \n\t ');
  const shots = await make('只有分镜的漫画', 0, '');
  await app.works.update(userId, shots, {
    shots: [
      {
        index: 0,
        caption: '雾从港口漫上来。',
        imagePrompt: '雾中的港口',
        roleIds: [],
        imageUrl: '',
        audioUrl: '',
        durationMs: 0,
        needsRegeneration: false,
      },
    ],
  });
  // A market video made from its fields: something made, no text.
  const made = await make('做好的营销视频', 4, '');
  await app.db
    .insertInto('video_tasks')
    .values({
      id: '00000000-0000-4000-8000-000000000029',
      work_id: made,
      user_id: userId,
      type: 4,
      state: 'succeeded',
    })
    .execute();
});
afterAll(async () => {
  await app.close();
});

describe('the works lists', () => {
  it('never list a work with no text and nothing made or chosen', async () => {
    const all = await titles('/api/video/get_works');
    expect(all).toEqual({
      titles: ['做好的营销视频', '只有分镜的漫画', '有文案的解压视频', '雾港来信'].sort(),
      total: 4,
    });
    expect((await titles('/api/video/get_works?type=4')).titles).toEqual(
      ['做好的营销视频', '雾港来信'].sort(),
    );
    expect((await titles('/api/video/get_works?type=1')).titles).toEqual(['有文案的解压视频']);
    const newest = (await client.get('/api/video/get_user_newest_works')).data as WorkSummary[];
    expect(newest.map((w) => w.title)).not.toContain('空的营销视频');
    expect(newest.map((w) => w.title)).not.toContain('只有空白的解压视频');
    // Unlisted, not gone: a page that has its id still opens it.
    expect((await client.get(`/api/video/work_info?workId=${ids['空的营销视频']}`)).code).toBe(0);
  });

  it('My copy (withText) lists texts only, so no 「（空）」 entry', async () => {
    expect(await titles('/api/video/get_works?withText=true')).toEqual({
      titles: ['有文案的解压视频'],
      total: 1,
    });
  });
});
