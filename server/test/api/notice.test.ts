import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { FastifyInstance } from 'fastify';
import { ADMIN_TOKEN, PC, body, createTestApp, createUser, login } from '../helpers/test-app';

let app: FastifyInstance;

/** This file's schema starts empty, so it knows every notice there is. */
async function publish(title: string, category: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/admin/notices/publish',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    payload: { title, content: `${title} 的内容 <script>alert(1)</script>`, category },
  });
  return body(response).data as { id: number; categoryId: number };
}

async function signIn() {
  const { username, password } = await createUser(app);
  return login(app, username, password);
}

interface NoticeItem {
  id: number;
  title: string;
  content: string;
  status: number;
  categoryId: number;
  updateTime: string;
}

const get = (url: string, cookie: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers, cookies: { kol_session: cookie } });
const list = async (cookie: string, query = 'pageIndex=1&pageSize=1000&id=-1') =>
  body(await get(`/api/notice/list?${query}`, cookie)).data as {
    items: NoticeItem[];
    total: number;
  };
const count = async (cookie: string) =>
  (body(await get('/api/notice/get_notice_count', cookie)).data as { count: number }).count;

let system: { id: number; categoryId: number }[];
let updates: { id: number; categoryId: number }[];

beforeAll(async () => {
  ({ app } = await createTestApp());
  system = [await publish('公告一', '系统公告'), await publish('公告二', '系统公告')];
  updates = [await publish('更新一', '功能更新')];
});
afterAll(async () => {
  await app.close();
});

describe('notices', () => {
  it('lists the categories', async () => {
    const cookie = await signIn();
    const data = body(await get('/api/notice/get_notice_category', cookie)).data;
    expect(data).toEqual([
      { id: system[0]?.categoryId, categoryName: '系统公告', categoryIcon: '' },
      { id: updates[0]?.categoryId, categoryName: '功能更新', categoryIcon: '' },
    ]);
  });

  it('lists all, newest first, unread, with content as given', async () => {
    const cookie = await signIn();
    const { items, total } = await list(cookie);
    expect(total).toBe(3);
    expect(items.map((n) => n.title)).toEqual(['更新一', '公告二', '公告一']);
    expect(items.every((n) => n.status === 0)).toBe(true);
    expect(items[0]?.content).toBe('更新一 的内容 <script>alert(1)</script>');
    expect(new Date(items[0]?.updateTime ?? '').getTime()).not.toBeNaN();
  });

  it('filters by category and pages', async () => {
    const cookie = await signIn();
    const byCategory = await list(cookie, `pageIndex=1&pageSize=1000&id=${system[0]?.categoryId}`);
    expect(byCategory.items.map((n) => n.title)).toEqual(['公告二', '公告一']);
    const page2 = await list(cookie, 'pageIndex=2&pageSize=2&id=-1');
    expect(page2).toMatchObject({ total: 3, items: [{ title: '公告一' }] });
  });

  it('marks one read, then all read, per user', async () => {
    const cookie = await signIn();
    const other = await signIn();
    expect(await count(cookie)).toBe(3);
    const click = await get(`/api/notice/click?noticeId=${system[0]?.id}`, cookie, PC);
    expect(body(click)).toEqual({ code: 0, msg: '成功', data: { count: 2 } });
    expect((await list(cookie)).items.find((n) => n.id === system[0]?.id)?.status).toBe(1);
    // Clicking again changes nothing.
    expect(
      (
        body(await get(`/api/notice/click?noticeId=${system[0]?.id}`, cookie, PC)).data as {
          count: number;
        }
      ).count,
    ).toBe(2);

    const all = await get('/api/notice/click?noticeId=-1', cookie, PC);
    expect(body(all).data).toEqual({ count: 0 });
    expect((await list(cookie)).items.every((n) => n.status === 1)).toBe(true);
    expect(await count(other)).toBe(3);

    // A notice published later arrives unread.
    await publish('公告三', '系统公告');
    expect(await count(cookie)).toBe(1);
  });

  it('refuses an unknown notice, a click without the platform header, and strangers', async () => {
    const cookie = await signIn();
    expect(body(await get('/api/notice/click?noticeId=999999', cookie, PC)).code).toBe(404);
    expect(body(await get('/api/notice/click?noticeId=-1', cookie)).code).toBe(403);
    expect(
      body(await app.inject({ method: 'GET', url: '/api/notice/get_notice_count' })).code,
    ).toBe(401);
  });
});
