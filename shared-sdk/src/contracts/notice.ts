import { Type, type Static } from 'typebox';
import { Int, endpoint } from './common';

/** Notice of spec section 3, plus the category it belongs to and a title. */
export const Notice = Type.Object({
  id: Type.Integer(),
  categoryId: Type.Integer(),
  title: Type.String(),
  /** Plain text; the browser never renders it as HTML. */
  content: Type.String(),
  status: Type.Union([Type.Literal(0), Type.Literal(1)]),
  updateTime: Type.String(),
});
export type Notice = Static<typeof Notice>;

export const NoticeCategory = Type.Object({
  id: Type.Integer(),
  categoryName: Type.String(),
  categoryIcon: Type.String(),
});
export type NoticeCategory = Static<typeof NoticeCategory>;

export const NoticeListQuery = Type.Object({
  pageIndex: Int('页码', { minimum: 1 }),
  pageSize: Int('每页条数', { minimum: 1, maximum: 1000 }),
  /** Category id; -1 means every category. */
  id: Int('分类', { minimum: -1 }),
});
export type NoticeListQuery = Static<typeof NoticeListQuery>;

export const NoticeList = Type.Object({
  items: Type.Array(Notice),
  total: Type.Integer({ minimum: 0 }),
});
export type NoticeList = Static<typeof NoticeList>;

export const UnreadCount = Type.Object({ count: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;

export const noticeEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/api/notice/list',
    summary: '通知列表',
    query: NoticeListQuery,
    response: NoticeList,
  }),
  click: endpoint({
    method: 'GET',
    path: '/api/notice/click',
    summary: '标记通知已读（-1 为全部已读）',
    query: Type.Object({ noticeId: Int('通知', { minimum: -1 }) }),
    response: UnreadCount,
  }),
  getNoticeCategory: endpoint({
    method: 'GET',
    path: '/api/notice/get_notice_category',
    summary: '通知分类',
    response: Type.Array(NoticeCategory),
  }),
  getNoticeCount: endpoint({
    method: 'GET',
    path: '/api/notice/get_notice_count',
    summary: '未读通知数',
    response: UnreadCount,
  }),
};
