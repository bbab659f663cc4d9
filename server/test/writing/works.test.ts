import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import type { WorkDetail, WorkSummary } from '@kol/shared-sdk/contracts';
import { createTestApp } from '../helpers/test-app';
import { signedInClient, type Client } from './helpers';

let app: FastifyInstance;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  ({ app } = await createTestApp());
  alice = await signedInClient(app);
  bob = await signedInClient(app);
});
afterAll(async () => {
  await app.close();
});

type Page = { items: WorkSummary[]; total: number };

describe('My copy (works)', () => {
  it('saves, lists newest first with an excerpt, reads, updates and deletes', async () => {
    const long = '林默守着青灯。'.repeat(20);
    const first = await alice.post('/api/video/save_text', { title: '青灯推文', text: long });
    expect(first.code).toBe(0);
    const { workId } = first.data as { workId: number };
    const second = (
      await alice.post('/api/video/save_text', {
        title: '雾港口播',
        text: '雾港的雾一年有三百天。',
        type: 1,
      })
    ).data as { workId: number };

    let page = (await alice.get('/api/video/get_works?pageIndex=1&pageSize=20')).data as Page;
    expect(page.total).toBe(2);
    expect(page.items.map((w) => w.workId)).toEqual([second.workId, workId]);
    expect(page.items[1]).toMatchObject({
      title: '青灯推文',
      type: 0,
      flag: 0,
      state: 'succeeded',
      stage: '',
      progress: 0,
      coverUrl: '',
    });
    expect(page.items[1]?.excerpt).toBe(long.slice(0, 80));

    // Filters: type, keyword in title or text.
    page = (await alice.get('/api/video/get_works?type=1')).data as Page;
    expect(page.items.map((w) => w.workId)).toEqual([second.workId]);
    page = (await alice.get(`/api/video/get_works?keyword=${encodeURIComponent('三百天')}`))
      .data as Page;
    expect(page.items.map((w) => w.workId)).toEqual([second.workId]);
    page = (await alice.get(`/api/video/get_works?keyword=${encodeURIComponent('%')}`))
      .data as Page;
    expect(page.total).toBe(0);

    const info = (await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail;
    expect(info).toMatchObject({
      workId,
      title: '青灯推文',
      text: long,
      settings: { aspect: '9:16' },
      shots: [],
    });

    const updated = await alice.edit('/api/video/update_text', { workId, text: '改过的文案。' });
    expect((updated.data as WorkDetail).text).toBe('改过的文案。');
    expect((updated.data as WorkDetail).title).toBe('青灯推文');
    // save_text with a workId updates it.
    expect(
      (await alice.edit('/api/video/save_text', { workId, title: '新标题', text: '再改一次。' }))
        .data,
    ).toEqual({ workId, revision: 3 });
    // Without the revision it was based on, a save over a stored work is refused.
    const blind = await alice.post('/api/video/save_text', { workId, title: '盲存', text: 'x' });
    expect(blind).toMatchObject({ status: 400, msg: '保存已有作品时请提供「修订号」' });
    page = (await alice.get('/api/video/get_works')).data as Page;
    expect(page.items[0]).toMatchObject({ workId, title: '新标题', excerpt: '再改一次。' });

    const deleted = await app.inject({
      method: 'GET',
      url: `/api/video/delete_work?workId=${workId}`,
      headers: alice.headers,
    });
    expect(deleted.json()).toMatchObject({ code: 0 });
    expect((await alice.get(`/api/video/work_info?workId=${workId}`)).code).toBe(404);
  });

  it("another user's work is not found, and their list is their own", async () => {
    const { workId } = (
      await alice.post('/api/video/save_text', { title: '私有', text: '只属于我。' })
    ).data as { workId: number };
    const notFound = { code: 404, msg: '没有找到这个作品（可能已删除，或不属于你）' };
    expect(await bob.get(`/api/video/work_info?workId=${workId}`)).toMatchObject(notFound);
    expect(await bob.edit('/api/video/update_text', { workId, text: 'x' })).toMatchObject(notFound);
    expect(await bob.edit('/api/video/save_text', { workId, title: 'x', text: 'x' })).toMatchObject(
      notFound,
    );
    const del = await app.inject({
      method: 'GET',
      url: `/api/video/delete_work?workId=${workId}`,
      headers: bob.headers,
    });
    expect(del.json()).toMatchObject(notFound);
    expect(((await bob.get('/api/video/get_works')).data as Page).total).toBe(0);
    expect(
      ((await alice.get(`/api/video/work_info?workId=${workId}`)).data as WorkDetail).text,
    ).toBe('只属于我。');
  });

  it('validates and needs the platform header to delete', async () => {
    expect((await alice.post('/api/video/save_text', { title: '', text: 'x' })).code).toBe(400);
    const noHeader = await app.inject({
      method: 'GET',
      url: '/api/video/delete_work?workId=1',
      headers: { cookie: alice.headers.cookie ?? '' },
    });
    expect(noHeader.statusCode).toBe(403);
  });
});
